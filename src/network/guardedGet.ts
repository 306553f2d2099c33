import http from 'node:http'
import https from 'node:https'
import type { AddressGuard } from './addressGuard'

export type GuardedGetOptions = {
  guard: AddressGuard
  headers?: Record<string, string>
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
}

/** An answer read whole: where it came from after redirects, its status, headers and text. */
export type GuardedAnswer = { url: string; status: number; headers: http.IncomingHttpHeaders; body: string }

/** Why a GET got no answer to read: the message names the URL and says what happened. */
export class FetchError extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

function describe(error: Error & { code?: string }, url: URL): string {
  if (error.message === 'refused address') return `${url.host} is a private, loopback or link-local address, which is refused`
  if (error.code === 'ECONNREFUSED') return `nothing answers at ${url.host} (connection refused)`
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `${url.hostname} is not a known host name`
  return error.message || error.code || 'failed'
}

/**
 * GET of an http(s) URL that may be anyone's (an import source), through an address guard: each hop
 * of a redirect is checked, literal addresses as written and names at the address connected to, so
 * neither a redirect nor DNS can lead the request into the server's own network. Credentials in
 * `headers.Authorization` go to the first origin only. Any status is answered; bodies over `maxBytes`
 * and requests over `timeoutMs` fail.
 */
export async function guardedGet(target: string, options: GuardedGetOptions): Promise<GuardedAnswer> {
  const { guard, timeoutMs = 30_000, maxBytes = 50 * 1024 * 1024, maxRedirects = 5 } = options
  let url: URL
  try {
    url = new URL(target)
  } catch {
    throw new FetchError(`${target} is not a URL`)
  }
  const origin = url.origin
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError(`${url.href}: only http and https URLs are read`)
    const redirected = hop > 0 ? ` (redirected from ${target})` : ''
    if (guard.refusesLiteral(url)) throw new FetchError(`GET ${url.href}${redirected}: ${describe(new Error('refused address'), url)}`)
    const headers = { ...options.headers }
    if (url.origin !== origin) delete headers.Authorization
    // No `cause`: a refused connection here is the source's, and must not read as the database's (connectionErrors.ts searches causes).
    const answer = await once(url, { guard, headers, timeoutMs, maxBytes }).catch((error: Error) => {
      throw new FetchError(`GET ${url.href}${redirected}: ${describe(error, url)}`)
    })
    const location = answer.headers.location
    if (!REDIRECTS.has(answer.status) || !location) return answer
    if (hop >= maxRedirects) throw new FetchError(`GET ${target}: more than ${maxRedirects} redirects`)
    url = new URL(location, url)
  }
}

function once(
  url: URL,
  options: Required<Pick<GuardedGetOptions, 'guard' | 'timeoutMs' | 'maxBytes'>> & { headers: Record<string, string> },
): Promise<GuardedAnswer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const request = client.get(url, { lookup: options.guard.lookup, timeout: options.timeoutMs, headers: options.headers }, (response) => {
      const status = response.statusCode ?? 0
      if (REDIRECTS.has(status)) {
        response.resume()
        return resolve({ url: url.href, status, headers: response.headers, body: '' })
      }
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > options.maxBytes) request.destroy(new Error(`the answer is larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB`))
        else chunks.push(chunk)
      })
      response.on('end', () => resolve({ url: url.href, status, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }))
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error(`no answer within ${Math.round(options.timeoutMs / 1000)} s`)))
    request.on('error', reject)
  })
}
