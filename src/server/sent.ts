/**
 * An answer as the server sends it: its status, its headers and its body (null: none, as a 304's or a
 * HEAD's). The namespace's made answers reach the server in front of Next this way and are written to
 * node's response as they are (`frontDoor.ts`): a web `Response` and its stream, built only to be read
 * back, cost a made answer more than its headers (docs/performance.md, "Made lists against the floor").
 */
export type Sent = { status: number; headers: Headers; body: string | Uint8Array | null }

/**
 * A HEAD's answer: the GET's without its body, still saying how long that body is (RFC 9110 §9.3.2:
 * the header fields a GET would have sent), as the GET's own answer says it.
 */
export function headOf(get: Sent): Sent {
  const headers = new Headers(get.headers)
  if (get.body !== null) headers.set('Content-Length', String(Buffer.byteLength(get.body)))
  return { ...get, headers, body: null }
}

/** The same answer as a web `Response`, for Next's routes and Payload's router. */
export function responseOf({ status, headers, body }: Sent): Response {
  return new Response(body as BodyInit | null, { status, headers })
}

/** A web `Response` as sent, its body read whole. */
export async function sentOf(response: Response): Promise<Sent> {
  return {
    status: response.status,
    headers: response.headers,
    body: response.body === null ? null : new Uint8Array(await response.arrayBuffer()),
  }
}

/**
 * An answer's bytes in memory of their own, text as UTF-8. `Buffer.from` and `Buffer.concat` take
 * anything under 4 KB from Node's shared 8 KB pool, and a kept slice holds its whole slab: kept for
 * the revision, the small answers (an item, a short list) held 8 KB each whatever their size, four
 * times the caches' budget under a site import's reads (docs/performance.md, "Memory"). Bytes that
 * are already all of their memory are used as they are: a copy would hold an answer twice.
 */
export function ownedBytes(parts: (string | Uint8Array)[]): Buffer {
  const [only] = parts
  if (parts.length === 1 && typeof only !== 'string' && ownsItsMemory(only!))
    return Buffer.isBuffer(only) ? only : Buffer.from(only!.buffer, 0, only!.byteLength)
  const bytes = Buffer.allocUnsafeSlow(
    parts.reduce((size, part) => size + Buffer.byteLength(part), 0),
  )
  let at = 0
  for (const part of parts) {
    if (typeof part === 'string') at += bytes.write(part, at)
    else {
      bytes.set(part, at)
      at += part.byteLength
    }
  }
  return bytes
}

/** Whether `bytes` are all of the memory they are a view of (not a slice of a shared slab). */
export const ownsItsMemory = (bytes: Uint8Array): boolean =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
