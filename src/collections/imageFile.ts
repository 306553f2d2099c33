import { ValidationError, type CollectionBeforeOperationHook } from 'payload'
import sharp from 'sharp'

/** The types Payload's upload resizes with sharp. */
const RESIZED = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
])

/** sharp's own limit, which Payload's resizing meets after the file is taken. */
const MAX_PIXELS = 0x3fff * 0x3fff

/**
 * Why a file cannot be an image of the media library, or undefined when it can: bytes of a type the
 * resizing reads (JPEG, PNG, WebP, GIF, AVIF, TIFF) that it cannot read, or more pixels than it
 * takes. Payload's upload refuses both with a general message and logs them as server errors; they
 * are the client's mistake, named with their reason (docs/api.md §6.4).
 */
export async function imageProblem(data: Buffer, mimetype: string): Promise<string | undefined> {
  // Payload resizes only what sharp reads; a vector image is never rasterised, and the rest (a BMP,
  // an icon) it stores as it is.
  if (!RESIZED.has(mimetype)) return undefined
  const { width, height } = await sharp(data, { limitInputPixels: false })
    .metadata()
    .catch(() => ({ width: 0, height: 0 }))
  if (!width || !height) return `not an image that can be read (${mimetype})`
  if (width * height > MAX_PIXELS)
    return `${width}×${height} pixels, more than the ${MAX_PIXELS} an image may have`
  return undefined
}

/** Every door's upload (Payload's REST and GraphQL, the admin, a download by URL) is checked so. */
export const readableImage: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  const file = req.file
  if ((operation === 'create' || operation === 'update') && file?.data?.length) {
    const problem = await imageProblem(file.data, file.mimetype)
    if (problem)
      throw new ValidationError({ errors: [{ path: 'file', message: `The file is ${problem}.` }] })
  }
  return args
}
