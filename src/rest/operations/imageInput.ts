import { capabilities } from '../../calendar/access/capabilities'
import { mediaFromUrl, prefetchImage } from '../../collections/mediaFromUrl'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'

const isUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//i.test(value)

/**
 * Downloads a write's image URL before the write's transaction opens (the route's `prepare`), for a
 * caller who may add images by URL; `resolveImage` then takes the download (docs/api.md §6.4).
 */
export async function prefetchImageInput(ctx: RestContext, value: unknown): Promise<void> {
  if (isUrl(value) && capabilities.upload(ctx.actor)) await prefetchImage(ctx.req, value)
}

/**
 * `image` on writes (docs/api.md §6.4, docs/api.md §6.1): a media id that must be an image, an http(s) URL
 * that is downloaded into media (reusing a media item that already has that URL), or empty.
 */
export async function resolveImage(ctx: RestContext, value: string | number): Promise<number | null> {
  if (value === '' || value === 0 || value === '0') return null
  const { payload } = ctx.req
  if (typeof value === 'number' || /^\d+$/.test(value)) {
    const media = await payload.findByID({ collection: 'media', id: Number(value), depth: 0, req: ctx.req, disableErrors: true })
    if (!media?.mimeType?.startsWith('image/')) throw RestError.invalidParams({ image: 'No image has this id.' })
    return media.id
  }
  if (!capabilities.upload(ctx.actor)) throw RestError.invalidParams({ image: 'You may not add images by URL.' })
  try {
    return await mediaFromUrl(ctx.req, value, [new URL(ctx.root).origin, payload.config.serverURL])
  } catch (error) {
    throw RestError.invalidParams({ image: error instanceof Error ? error.message : 'The image could not be downloaded.' })
  }
}
