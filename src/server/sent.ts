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
