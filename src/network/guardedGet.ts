import http from 'node:http'
import https from 'node:https'
import { RefusedAddress, type AddressGuard } from './addressGuard'

export type GuardedGetOptions = {
  guard: AddressGuard
  headers?: Record<string, string>
  /** The whole GET, from the first connection to the answer's last byte, redirects included. */
  deadlineMs?: number
  maxBytes?: number
  maxRedirects?: number
  /** Said after a limit's or a refusal's message: the setting that lifts it. */
  notes?: { deadline?: string; size?: string; refused?: string }
}

/** An answer read whole: where it came from after redirects, its status, headers and bytes. */
export type GuardedBytes = {
  url: string
  status: number
  headers: http.IncomingHttpHeaders
  data: Buffer
}

/** The same answer as text (UTF-8). */
export type GuardedAnswer = Omit<GuardedBytes, 'data'> & { body: string }

/** Why a GET got no answer to read: the message names the URL and says what happened. */
export class FetchError extends Error {}

/** The answer was over the size the caller allows. */
export class AnswerTooLarge extends FetchError {}

/** The address guard refused a hop's address. */
export class AddressRefused extends FetchError {}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

function describe(error: Error & { code?: string }, url: URL): string {
  if (error instanceof RefusedAddress)
    return `${url.host} is a private, loopback or link-local address, which is refused`
  if (error.code === 'ECONNREFUSED') return `nothing answers at ${url.host} (connection refused)`
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN')
    return `${url.hostname} is not a known host name`
  return error.message || error.code || 'failed'
}

/**
 * GET of an http(s) URL that may be anyone's (an import source), through an address guard: each hop
 * of a redirect is checked, literal addresses as written and names at the address connected to, so
 * neither a redirect nor DNS can lead the request into the server's own network. Credentials in
 * `headers.Authorization` go to the first origin only. Any status is answered; a body over `maxBytes`
 * fails as it streams (at once when its Content-Length says so), and so does a GET not done within
 * `deadlineMs` in all, however steadily the server drips.
 */
export async function guardedGet(
  target: string,
  options: GuardedGetOptions,
): Promise<GuardedAnswer> {
  const { data, ...answer } = await guardedGetBytes(target, options)
  return { ...answer, body: data.toString('utf8') }
}

/** `guardedGet` for binary answers (images): the body as it came. */
export async function guardedGetBytes(
  target: string,
  options: GuardedGetOptions,
): Promise<GuardedBytes> {
  const {
    guard,
    deadlineMs = 60_000,
    maxBytes = 20 * 1024 * 1024,
    maxRedirects = 5,
    notes = {},
  } = options
  const until = Date.now() + deadlineMs
  const late = `no complete answer within ${Math.round(deadlineMs / 1000)} s${notes.deadline ? ` (${notes.deadline})` : ''}`
  const large = `the answer is larger than ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB${notes.size ? ` (${notes.size})` : ''}`
  let url: URL
  try {
    url = new URL(target)
  } catch {
    throw new FetchError(`${target} is not a URL`)
  }
  const origin = url.origin
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchError(`${url.href}: only http and https URLs are read`)
    const redirected = hop > 0 ? ` (redirected from ${target})` : ''
    const refused = `GET ${url.href}${redirected}: ${describe(new RefusedAddress(), url)}${notes.refused ? ` (${notes.refused})` : ''}`
    if (guard.refusesLiteral(url)) throw new AddressRefused(refused)
    const headers = { ...options.headers }
    if (url.origin !== origin) delete headers.Authorization
    // No `cause`: a refused connection here is the source's, and must not read as the database's (connectionErrors.ts searches causes).
    const answer = await once(url, { guard, headers, until, late, maxBytes, large }).catch(
      (error: Error) => {
        if (error instanceof RefusedAddress) throw new AddressRefused(refused)
        const Kind = error instanceof AnswerTooLarge ? AnswerTooLarge : FetchError
        throw new Kind(`GET ${url.href}${redirected}: ${describe(error, url)}`)
      },
    )
    const location = answer.headers.location
    if (!REDIRECTS.has(answer.status) || !location) return answer
    if (hop >= maxRedirects)
      throw new FetchError(`GET ${target}: more than ${maxRedirects} redirects`)
    url = new URL(location, url)
  }
}

type Hop = {
  guard: AddressGuard
  headers: Record<string, string>
  until: number
  late: string
  maxBytes: number
  large: string
}

function once(url: URL, hop: Hop): Promise<GuardedBytes> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const settle =
      <T>(finish: (value: T) => void) =>
      (value: T) => {
        clearTimeout(deadline)
        finish(value)
      }
    const done = settle(resolve)
    const fail = settle(reject)
    const request = client.get(
      url,
      { lookup: hop.guard.lookup, headers: hop.headers },
      (response) => {
        const status = response.statusCode ?? 0
        if (REDIRECTS.has(status)) {
          response.resume()
          return done({ url: url.href, status, headers: response.headers, data: Buffer.alloc(0) })
        }
        if (Number(response.headers['content-length']) > hop.maxBytes)
          return request.destroy(new AnswerTooLarge(hop.large))
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > hop.maxBytes) request.destroy(new AnswerTooLarge(hop.large))
          else chunks.push(chunk)
        })
        response.on('end', () =>
          done({ url: url.href, status, headers: response.headers, data: Buffer.concat(chunks) }),
        )
        response.on('error', fail)
      },
    )
    const deadline = setTimeout(
      () => request.destroy(new Error(hop.late)),
      Math.max(0, hop.until - Date.now()),
    )
    request.on('error', fail)
  })
}
