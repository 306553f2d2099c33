import http from 'node:http'
import https from 'node:https'
import type { PayloadRequest } from 'payload'
import { addressGuard, envFlag, type AddressGuard } from '../network/addressGuard'

const MAX_BYTES = 10 * 1024 * 1024
const TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 3

/** Image URLs: ALLOW_PRIVATE_IMAGE_URLS lets them reach private addresses (docs/operations.md). */
const imageGuard = addressGuard(envFlag('ALLOW_PRIVATE_IMAGE_URLS'))
/** For a caller the operator let reach private addresses otherwise (an import's source and its images, IMPORT_ALLOW_PRIVATE). */
const openGuard = addressGuard(() => true)

type Download = { data: Buffer; mimetype: string; name: string }

/**
 * The image's server did not give an image. No `cause`: a refused connection to that server must not
 * read as the database's (connectionErrors.ts searches causes and messages).
 */
export class ImageDownloadError extends Error {}

function download(url: URL, guard: AddressGuard, redirects = 0): Promise<Download> {
  return new Promise((resolve, reject) => {
    if (guard.refusesLiteral(url)) return reject(new Error('refused address'))
    const client = url.protocol === 'https:' ? https : http
    const request = client.get(url, { lookup: guard.lookup, timeout: TIMEOUT_MS, headers: { Accept: 'image/*' } }, (response) => {
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume()
        if (redirects >= MAX_REDIRECTS) return reject(new Error('too many redirects'))
        const next = new URL(response.headers.location, url)
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return reject(new Error('redirect to another scheme'))
        return download(next, guard, redirects + 1).then(resolve, reject)
      }
      const mimetype = String(response.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase()
      if (status !== 200 || !mimetype.startsWith('image/')) {
        response.resume()
        return reject(new Error(`not an image (HTTP ${status}, ${mimetype || 'no type'})`))
      }
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_BYTES) {
          request.destroy(new Error('image larger than 10 MB'))
          return
        }
        chunks.push(chunk)
      })
      response.on('end', () => {
        const name = decodeURIComponent(url.pathname.split('/').pop() || 'image').replace(/[^\w.-]+/g, '-') || 'image'
        resolve({ data: Buffer.concat(chunks), mimetype, name })
      })
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error('timed out')))
    request.on('error', reject)
  })
}

/**
 * The media item of an http(s) image URL: the stored one when the URL is one of this site's own media
 * files (`origins`: the site's origins), else the image downloaded into media (10 MB, 10 s, no private
 * addresses unless ALLOW_PRIVATE_IMAGE_URLS, or `allowPrivate`). Throws an Error saying why the download failed.
 */
export async function mediaFromUrl(req: PayloadRequest, value: string, origins: string[], options: { allowPrivate?: boolean } = {}): Promise<number> {
  const { payload } = req
  const url = new URL(value)
  const stored = url.pathname.match(/\/api\/media\/file\/([^/]+)$/)
  if (stored && origins.includes(url.origin)) {
    const { docs } = await payload.find({
      collection: 'media',
      where: { filename: { equals: decodeURIComponent(stored[1]!) } },
      limit: 1,
      depth: 0,
      req,
    })
    if (docs[0]) return docs[0].id
  }
  let file: Download
  try {
    file = await download(url, options.allowPrivate ? openGuard : imageGuard)
  } catch (error) {
    throw new ImageDownloadError(`The image could not be downloaded: ${error instanceof Error ? error.message : 'failed'}.`)
  }
  const media = await payload.create({
    collection: 'media',
    data: { alt: file.name },
    file: { data: file.data, mimetype: file.mimetype, name: file.name, size: file.data.length },
    req,
    overrideAccess: true,
  })
  return media.id
}
