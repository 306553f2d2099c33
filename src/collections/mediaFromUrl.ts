import type { PayloadRequest } from 'payload'
import { addressGuard, envFlag, type AddressGuard } from '../network/addressGuard'
import { guardedGetBytes } from '../network/guardedGet'
import { imageProblem } from './imageFile'

const MAX_BYTES = 10 * 1024 * 1024
/** The whole download, redirects included: a server that drips a byte a second is cut off here, not only an idle one. */
const DEADLINE_MS = 10_000
const MAX_REDIRECTS = 3

/** Image URLs: ALLOW_PRIVATE_IMAGE_URLS lets them reach private addresses (docs/operations.md). */
const imageGuard = addressGuard(envFlag('ALLOW_PRIVATE_IMAGE_URLS'))
/** For a caller the operator let reach private addresses otherwise (an import's source and its images, IMPORT_ALLOW_PRIVATE). */
const openGuard = addressGuard(() => true)

type Download = { data: Buffer; mimetype: string; name: string }
/** Who may reach private addresses, and the setting named when an address is refused. */
type DownloadOptions = { allowPrivate?: boolean; refusedNote?: string }
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

const fileName = (url: URL) =>
  decoded(url.pathname.split('/').pop() || 'image').replace(/[^\w.-]+/g, '-') || 'image'

async function download(
  url: URL,
  guard: AddressGuard,
  refusedNote: string | undefined,
): Promise<Download> {
  const answer = await guardedGetBytes(url.href, {
    guard,
    headers: { Accept: 'image/*' },
    deadlineMs: DEADLINE_MS,
    maxBytes: MAX_BYTES,
    maxRedirects: MAX_REDIRECTS,
    notes: { refused: refusedNote },
  })
  const mimetype = String(answer.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase()
  if (answer.status !== 200 || !mimetype.startsWith('image/'))
    throw new Error(`not an image (HTTP ${answer.status}, ${mimetype || 'no type'})`)
  const problem = await imageProblem(answer.data, mimetype)
  if (problem) throw new Error(problem)
  return { data: answer.data, mimetype, name: fileName(new URL(answer.url)) }
}

/** Downloads already made for a request, by URL: the namespace fetches before its write's transaction opens. */
const fetched = new WeakMap<PayloadRequest, Map<string, Settled>>()

async function settledDownload(value: string, options: DownloadOptions): Promise<Settled> {
  try {
    return {
      file: await download(
        new URL(value),
        options.allowPrivate ? openGuard : imageGuard,
        options.refusedNote,
      ),
    }
  } catch (error) {
    return {
      error: `The image could not be downloaded: ${error instanceof Error ? error.message : 'failed'}.`,
    }
  }
}

/**
 * Downloads an image URL for a write that is about to run, before its transaction opens, so that no
 * database connection or lock waits on another server (docs/api.md §6.4). `mediaFromUrl` then takes it.
 */
export async function prefetchImage(
  req: PayloadRequest,
  value: string,
  options: DownloadOptions = {},
): Promise<void> {
  const downloads = fetched.get(req) ?? new Map<string, Settled>()
  fetched.set(req, downloads)
  if (!downloads.has(value)) downloads.set(value, await settledDownload(value, options))
}

/** The stored media item whose file a URL of this site's own (`origins`) names. */
async function storedMedia(
  req: PayloadRequest,
  url: URL,
  origins: string[],
): Promise<number | undefined> {
  const stored = url.pathname.match(/\/api\/media\/file\/([^/]+)$/)
  if (!stored || !origins.includes(url.origin)) return undefined
  const { docs } = await req.payload.find({
    collection: 'media',
    where: { filename: { equals: decoded(stored[1]!) } },
    limit: 1,
    depth: 0,
    req,
  })
  return docs[0]?.id
}

/**
 * The media item of an http(s) image URL: the stored one when the URL is one of this site's own media
 * files (`origins`: the site's origins), else the image downloaded into media (10 MB, 10 s for the
 * whole download, no private addresses unless ALLOW_PRIVATE_IMAGE_URLS, or `allowPrivate`), or the one
 * `prefetchImage` downloaded for this request. Throws an Error saying why the download failed.
 */
export async function mediaFromUrl(
  req: PayloadRequest,
  value: string,
  origins: string[],
  options: DownloadOptions = {},
): Promise<number> {
  const url = new URL(value)
  const stored = await storedMedia(req, url, origins)
  if (stored !== undefined) return stored
  const settled = fetched.get(req)?.get(value) ?? (await settledDownload(value, options))
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
