import qs from 'qs'
import { RestError } from '../../server/errors'
import { readAtMost } from '../../server/requestBody'
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
