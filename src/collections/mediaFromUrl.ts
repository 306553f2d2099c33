import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import type { PayloadRequest } from 'payload'

const MAX_BYTES = 10 * 1024 * 1024
const TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 3

/** Addresses a server-side download must never reach unless the operator allows it (SSRF). */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6')
}

function allowPrivate(): boolean {
  return process.env.ALLOW_PRIVATE_IMAGE_URLS === 'true' || process.env.ALLOW_PRIVATE_IMAGE_URLS === '1'
}

function isPrivate(address: string): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
  return PRIVATE.check(address, family)
}

/** Checks the address actually connected to, so a DNS answer cannot change between check and use. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { all: true })
    .then((addresses) => {
      const refused = !allowPrivate() && addresses.some((entry) => isPrivate(entry.address))
      if (refused || !addresses.length) return callback(new Error('refused address'), '', 4)
      const first = addresses[0]!
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses)
      callback(null, first.address, first.family)
    })
    .catch((error: Error) => callback(error, '', 4))
}

type Download = { data: Buffer; mimetype: string; name: string }

/** Hosts written as addresses skip DNS (and so the guarded lookup): check them as they are. */
function refusedLiteral(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return isIP(host) !== 0 && !allowPrivate() && isPrivate(host)
}

function download(url: URL, redirects = 0): Promise<Download> {
  return new Promise((resolve, reject) => {
    if (refusedLiteral(url)) return reject(new Error('refused address'))
    const client = url.protocol === 'https:' ? https : http
    const request = client.get(url, { lookup: guardedLookup, timeout: TIMEOUT_MS, headers: { Accept: 'image/*' } }, (response) => {
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume()
        if (redirects >= MAX_REDIRECTS) return reject(new Error('too many redirects'))
        const next = new URL(response.headers.location, url)
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return reject(new Error('redirect to another scheme'))
        return download(next, redirects + 1).then(resolve, reject)
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
 * addresses unless ALLOW_PRIVATE_IMAGE_URLS). Throws an Error saying why the download failed.
 */
export async function mediaFromUrl(req: PayloadRequest, value: string, origins: string[]): Promise<number> {
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
    file = await download(url)
  } catch (error) {
    throw new Error(`The image could not be downloaded: ${error instanceof Error ? error.message : 'failed'}.`, { cause: error })
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
