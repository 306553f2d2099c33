import qs from 'qs'
import { RestError } from '../../server/errors'
import { BODY_CUT_OFF } from '../../server/requestBody'
import { BRACKET_PARSE_OPTIONS } from './query'

type Bytes = Uint8Array<ArrayBuffer>

type BodyParser = (
  bytes: Bytes,
  contentType: string,
) => Record<string, unknown> | Promise<Record<string, unknown>>

const BODY_PARSERS = new Map<string, BodyParser>([
  ['application/json', parseJsonObject],
  ['application/x-www-form-urlencoded', parseFormEncoded],
  ['multipart/form-data', parseMultipart],
])

/**
 * The request body's parameters, read according to its Content-Type. Other content types and empty bodies
 * carry no parameters (`{}`), as in WordPress. At most `maxBytes` are read, whatever Content-Length claims.
 */
export async function readBody(
  request: Request,
  maxBytes: number,
  logger: { warn(message: string): void } = console,
): Promise<Record<string, unknown>> {
  const contentType = request.headers.get('Content-Type') ?? ''
  const parse = BODY_PARSERS.get(mediaTypeOf(contentType))
  // Read (and count) even bodies of other types, so an oversized one is a 413 whatever it claims to be.
  const bytes = await readAtMost(request, maxBytes, logger)
  if (!parse) return {}
  return bytes.byteLength === 0 ? {} : parse(bytes, contentType)
}

function mediaTypeOf(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase()
}

/** Counts while reading because Content-Length may be absent (chunked) or lie. */
async function readAtMost(
  request: Request,
  maxBytes: number,
  logger: { warn(message: string): void },
): Promise<Bytes> {
  if (Number(request.headers.get('Content-Length')) > maxBytes) throw RestError.tooLarge(maxBytes)
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  const read = () =>
    reader.read().catch((error: unknown) => {
      // A caller gone is theirs to know; anything else that stops a body being read is told in one line.
      if (!connectionGone(error))
        logger.warn(`a request body could not be read to its end: ${String(error)}`)
      throw RestError.incompleteBody()
    })
  for (let chunk = await read(); !chunk.done; chunk = await read()) {
    total += chunk.value.byteLength
    if (total > maxBytes) {
      // The rest of the body is abandoned either way; a failing cancel must not hide the 413.
      await reader.cancel().catch(() => undefined)
      throw RestError.tooLarge(maxBytes)
    }
    chunks.push(chunk.value)
  }
  return concatenate(chunks, total)
}

/** The connection went while the body was read: handed over without Next (`BODY_CUT_OFF`) or by Next (Node's `aborted`). */
function connectionGone(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === BODY_CUT_OFF ||
      error.message === 'aborted' ||
      (error as { code?: string }).code === 'ECONNRESET')
  )
}

function concatenate(chunks: Uint8Array[], total: number): Bytes {
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** Invalid UTF-8 is invalid JSON (RFC 8259), as PHP's `json_decode` treats it, not text to repair. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

function parseJsonObject(bytes: Bytes): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(STRICT_UTF8.decode(bytes), dropPrototypeKeys)
  } catch {
    throw RestError.invalidJson()
  }
  if (!isPlainObject(parsed)) throw RestError.invalidJson()
  return parsed
}

/** A `__proto__` key is harmless in the parsed object but becomes prototype pollution once merged with `Object.assign`. */
function dropPrototypeKeys(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parseFormEncoded(bytes: Bytes): Record<string, unknown> {
  return qs.parse(new TextDecoder().decode(bytes), BRACKET_PARSE_OPTIONS)
}

/**
 * Text parts are read exactly like an urlencoded body (same brackets, same limits); a file part becomes a
 * `File` at the place its name designates (`image`, `organizer[0][image]`). Files travel through the
 * query-string parser as `@<n>` placeholders, which no percent-encoded text value can spell (`@` is
 * always encoded as `%40`).
 */
async function parseMultipart(bytes: Bytes, contentType: string): Promise<Record<string, unknown>> {
  const form = await readFormData(bytes, contentType)
  const files: File[] = []
  const pairs: string[] = []
  form.forEach((value, name) => {
    const encodedValue =
      typeof value === 'string' ? encodeURIComponent(value) : `@${files.push(value) - 1}`
    pairs.push(`${encodeURIComponent(name)}=${encodedValue}`)
  })
  return qs.parse(pairs.join('&'), {
    ...BRACKET_PARSE_OPTIONS,
    decoder: (text, defaultDecoder, charset, type) =>
      type === 'value' && FILE_PLACEHOLDER.test(text)
        ? files[Number(text.slice(1))]
        : defaultDecoder(text, defaultDecoder, charset),
  })
}

const FILE_PLACEHOLDER = /^@\d+$/

async function readFormData(bytes: Bytes, contentType: string): Promise<FormData> {
  try {
    return await new Response(bytes, { headers: { 'Content-Type': contentType } }).formData()
  } catch {
    throw RestError.invalidMultipart()
  }
}
