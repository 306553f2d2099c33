import { capabilities } from '../calendar/access/capabilities'
import { mediaFromUrl, prefetchImage } from '../collections/mediaFromUrl'
import { Refusal } from './refusal'
import type { Writer } from './writer'

const isUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\//i.test(value)

/** The images a write carries: its own, and those of a venue and organizers given inline (docs/api.md §6.5). */
function imagesOf(params: Record<string, unknown>): unknown[] {
  const inline = [params.venue, ...(Array.isArray(params.organizer) ? params.organizer : [])]
  return [
    params.image,
    ...inline.map((linked) =>
      linked && typeof linked === 'object' ? (linked as { image?: unknown }).image : undefined,
    ),
  ]
}

/**
 * Downloads a write's image URLs before the write's transaction opens (the route's `prepare`), for a
 * caller who may add images by URL; `resolveImage` then takes the downloads (docs/api.md §6.4).
 */
export async function prefetchImages(
  writer: Writer,
  params: Record<string, unknown>,
): Promise<void> {
  if (!capabilities.upload(writer.actor)) return
  for (const value of imagesOf(params)) if (isUrl(value)) await prefetchImage(writer.req, value)
}

/**
 * `image` on writes (docs/api.md §6.4, docs/api.md §6.1): a media id that must be an image, an http(s) URL
 * that is downloaded into media (reusing a media item that already has that URL), or empty.
 */
export async function resolveImage(writer: Writer, value: string | number): Promise<number | null> {
  if (value === '' || value === 0 || value === '0') return null
  const { payload } = writer.req
  if (typeof value === 'number' || /^\d+$/.test(value)) {
    const media = await payload.findByID({
      collection: 'media',
      id: Number(value),
      depth: 0,
      req: writer.req,
      disableErrors: true,
    })
    if (!media?.mimeType?.startsWith('image/'))
      throw Refusal.invalidParams({ image: 'No image has this id.' })
    return media.id
  }
  if (!capabilities.upload(writer.actor))
    throw Refusal.invalidParams({ image: 'You may not add images by URL.' })
  try {
    return await mediaFromUrl(writer.req, value, [
      new URL(writer.root).origin,
      payload.config.serverURL,
    ])
  } catch (error) {
    throw Refusal.invalidParams({
      image: error instanceof Error ? error.message : 'The image could not be downloaded.',
    })
  }
}
