import type { IncomingMessage } from 'node:http'

/** `MAX_BODY_BYTES`: the largest body the namespace reads (docs/operations.md). */
export const maxBodyBytes = Number(process.env.MAX_BODY_BYTES || 2 * 1024 * 1024)

/** How much a stream holds before it stops reading from the socket: the caller's sending waits meanwhile. */
const HELD_BYTES = 64 * 1024

/**
 * A request's body as a web stream for the namespace, read from the socket only as fast as the
 * namespace reads it. Given up on (a body past its limit, `rest/http/body.ts`), it stops reading
 * and leaves the rest to `dropUnreadBody`, once the answer is sent. Node's own `Readable.toWeb`
 * destroys the request instead, and with it the connection before the 413 could be read.
 */
export function bodyStream(request: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.on('data', (chunk: Buffer) => {
          if (!open) return
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) request.pause()
        })
        request.once('end', () => open && controller.close())
        request.once('error', (error) => open && controller.error(error))
        request.once('close', () => {
          if (open && !request.complete) controller.error(new Error('the request was cut off'))
          open = false
        })
      },
      pull() {
        request.resume()
      },
      cancel() {
        open = false
        request.pause()
      },
    },
    { highWaterMark: HELD_BYTES, size: (chunk) => chunk.byteLength },
  )
}

/**
 * After a write's answer: what the namespace did not read of its body is read and dropped, so the
 * connection can carry the caller's next request, as Node drops the body of a request no one reads.
 * Past `lingerBytes` more the connection is closed: a caller still sending that much after its
 * answer (a body refused as too large, sent without end) is not owed the rest of the read.
 */
export function dropUnreadBody(request: IncomingMessage, lingerBytes: number): void {
  if (request.complete || request.destroyed) return
  // The namespace's stream, unread, would pause the request again as its queue fills.
  request.removeAllListeners('data')
  let dropped = 0
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength
    if (dropped > lingerBytes) request.socket.destroy()
  })
  request.resume()
}
