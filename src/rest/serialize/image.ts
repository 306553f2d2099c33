import type { Media } from '../../payload-types'
import type { RestContext } from '../context'

type ImageSize = {
  width: number
  height: number
  'mime-type': string
  filesize?: number
  url: string
}

function absolute(ctx: RestContext, url: string | null | undefined): string {
  if (!url) return ''
  return /^https?:\/\//.test(url) ? url : new URL(url, ctx.root).toString()
}

/** The featured image object of docs/api.md §3.6, from a media document. */
export function serializeImage(ctx: RestContext, media: Media | undefined) {
  if (!media?.url) return undefined
  const sizes: Record<string, ImageSize> = {}
  for (const [name, size] of Object.entries(media.sizes ?? {})) {
    if (!size?.url || !size.width || !size.height) continue
    sizes[name] = {
      width: size.width,
      height: size.height,
      'mime-type': size.mimeType ?? media.mimeType ?? '',
      ...(size.filesize ? { filesize: size.filesize } : {}),
      url: absolute(ctx, size.url),
    }
  }
  const image: Record<string, unknown> = {
    url: absolute(ctx, media.url),
    id: media.id,
    extension: (media.filename ?? '').split('.').pop()?.toLowerCase() ?? '',
    width: media.width ?? undefined,
    height: media.height ?? undefined,
    filesize: media.filesize ?? undefined,
    sizes,
  }
  for (const key of Object.keys(image))
    if (image[key] === undefined || image[key] === '') delete image[key]
  return image
}
