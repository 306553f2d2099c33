import http from 'node:http'
import https from 'node:https'
import type { PayloadRequest } from 'payload'
import { addressGuard, envFlag, type AddressGuard } from '../network/addressGuard'

const MAX_BYTES = 10 * 1024 * 1024
/** The whole download, redirects included: a server that drips a byte a second is cut off here, not only an idle one. */
const DEADLINE_MS = 10_000
const MAX_REDIRECTS = 3

/** Image URLs: ALLOW_PRIVATE_IMAGE_URLS lets them reach private addresses (docs/operations.md). */
const imageGuard = addressGuard(envFlag('ALLOW_PRIVATE_IMAGE_URLS'))
/** For a caller the operator let reach private addresses otherwise (an import's source and its images, IMPORT_ALLOW_PRIVATE). */
const openGuard = addressGuard(() => true)

type Download = { data: Buffer; mimetype: string; name: string }
type Settled = { file: Download } | { error: string }

/**
 * The image's server did not give an image. No `cause`: a refused connection to that server must not
 * read as the database's (connectionErrors.ts searches causes and messages).
 */
export class ImageDownloadError extends Error {}

/** A path segment as text; one with a stray `%` stays as written rather than failing the download. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const fileName = (url: URL) => decoded(url.pathname.split('/').pop() || 'image').replace(/[^\w.-]+/g, '-') || 'image'

function download(url: URL, guard: AddressGuard): Promise<Download> {
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest | undefined
    const deadline = setTimeout(() => request?.destroy(new Error(`no complete answer within ${DEADLINE_MS / 1000} s`)), DEADLINE_MS)
    const settle =
      <T>(finish: (value: T) => void) =>
      (value: T) => {
        clearTimeout(deadline)
        finish(value)
      }
    const done = settle(resolve)
    const fail = settle(reject)
    const get = (at: URL, redirects: number) => {
      if (guard.refusesLiteral(at)) return fail(new Error('refused address'))
      const client = at.protocol === 'https:' ? https : http
      request = client.get(at, { lookup: guard.lookup, headers: { Accept: 'image/*' } }, (response) => {
        const status = response.statusCode ?? 0
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume()
          if (redirects >= MAX_REDIRECTS) return fail(new Error('too many redirects'))
          const next = new URL(response.headers.location, at)
          if (next.protocol !== 'http:' && next.protocol !== 'https:') return fail(new Error('redirect to another scheme'))
          return get(next, redirects + 1)
        }
        const mimetype = String(response.headers['content-type'] ?? '')
          .split(';')[0]!
          .trim()
          .toLowerCase()
        if (status !== 200 || !mimetype.startsWith('image/')) {
          response.resume()
          return fail(new Error(`not an image (HTTP ${status}, ${mimetype || 'no type'})`))
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > MAX_BYTES) request?.destroy(new Error('image larger than 10 MB'))
          else chunks.push(chunk)
        })
        response.on('end', () => done({ data: Buffer.concat(chunks), mimetype, name: fileName(at) }))
        response.on('error', fail)
      })
      request.on('error', fail)
    }
    get(url, 0)
  })
}

/** Downloads already made for a request, by URL: the namespace fetches before its write's transaction opens. */
const fetched = new WeakMap<PayloadRequest, Map<string, Settled>>()

async function settledDownload(value: string, allowPrivate: boolean): Promise<Settled> {
  try {
    return { file: await download(new URL(value), allowPrivate ? openGuard : imageGuard) }
  } catch (error) {
    return { error: `The image could not be downloaded: ${error instanceof Error ? error.message : 'failed'}.` }
  }
}

/**
 * Downloads an image URL for a write that is about to run, before its transaction opens, so that no
 * database connection or lock waits on another server (docs/api.md §6.4). `mediaFromUrl` then takes it.
 */
export async function prefetchImage(req: PayloadRequest, value: string, options: { allowPrivate?: boolean } = {}): Promise<void> {
  const downloads = fetched.get(req) ?? new Map<string, Settled>()
  fetched.set(req, downloads)
  if (!downloads.has(value)) downloads.set(value, await settledDownload(value, options.allowPrivate ?? false))
}

/** The stored media item whose file a URL of this site's own (`origins`) names. */
async function storedMedia(req: PayloadRequest, url: URL, origins: string[]): Promise<number | undefined> {
  const stored = url.pathname.match(/\/api\/media\/file\/([^/]+)$/)
  if (!stored || !origins.includes(url.origin)) return undefined
  const { docs } = await req.payload.find({ collection: 'media', where: { filename: { equals: decoded(stored[1]!) } }, limit: 1, depth: 0, req })
  return docs[0]?.id
}

/**
 * The media item of an http(s) image URL: the stored one when the URL is one of this site's own media
 * files (`origins`: the site's origins), else the image downloaded into media (10 MB, 10 s for the
 * whole download, no private addresses unless ALLOW_PRIVATE_IMAGE_URLS, or `allowPrivate`), or the one
 * `prefetchImage` downloaded for this request. Throws an Error saying why the download failed.
 */
export async function mediaFromUrl(req: PayloadRequest, value: string, origins: string[], options: { allowPrivate?: boolean } = {}): Promise<number> {
  const url = new URL(value)
  const stored = await storedMedia(req, url, origins)
  if (stored !== undefined) return stored
  const settled = fetched.get(req)?.get(value) ?? (await settledDownload(value, options.allowPrivate ?? false))
  if ('error' in settled) throw new ImageDownloadError(settled.error)
  const { file } = settled
  const media = await req.payload.create({
    collection: 'media',
    data: { alt: file.name },
    file: { data: file.data, mimetype: file.mimetype, name: file.name, size: file.data.length },
    req,
    overrideAccess: true,
  })
  return media.id
}
