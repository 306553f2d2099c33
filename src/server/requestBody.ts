import type { IncomingMessage } from 'node:http'
import { numberSetting } from '../calendar/settings'

/** `MAX_BODY_BYTES`: the largest body the namespace reads (docs/operations.md). */
export const maxBodyBytes = numberSetting('MAX_BODY_BYTES')

/**
 * The name of the error a body's stream ends with when its connection went before the body did. A
 * name, not a class: the namespace reading the stream is in Next's bundle, with classes of its own.
 */
export const BODY_CUT_OFF = 'BodyCutOff'

/**
 * A namespace write's body as the namespace reads it when the server in front of Next hands it the
 * request, and what becomes of the rest once it is answered, as it was through Next and Payload:
 *
 * - `stream` takes from the request only as the namespace reads the stream, nothing before its first
 *   read (Node's parser holds what arrived meanwhile, 16 KB at most), so a body refused on its
 *   `Content-Length` is not read for nothing;
 * - `settle`, once the answer is sent: a body the namespace did not read to its end is read and
 *   dropped, as Node drops the body of a request no one reads, so the connection carries the
 *   caller's next request; a body it gave up on as too large while reading it (sent without a
 *   length, `rest/http/body.ts`) is left unread: the caller's sending stalls, and its connection
 *   ends when the caller gives up or at Node's `requestTimeout`, rather than being read without end.
 */
export function requestBody(request: IncomingMessage): {
  stream: ReadableStream<Uint8Array>
  settle(): void
} {
  let givenUp = false
  let listening = false
  const cutOff = () =>
    Object.assign(new Error('the request was cut off before its body ended'), {
      name: BODY_CUT_OFF,
    })
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!listening) {
          listening = true
          if (request.readableEnded) return controller.close()
          if (request.destroyed) return controller.error(cutOff())
          request.on('data', (chunk: Buffer) => {
            if (givenUp) return
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
            if ((controller.desiredSize ?? 0) <= 0) request.pause()
          })
          request.once('end', () => givenUp || controller.close())
          request.once('error', (error) => givenUp || controller.error(error))
          request.once(
            'close',
            () => givenUp || request.readableEnded || controller.error(cutOff()),
          )
        }
        request.resume()
      },
      cancel() {
        givenUp = true
        request.pause()
      },
    },
    { highWaterMark: 0 },
  )
  return {
    stream,
    settle() {
      request.removeAllListeners('data')
      if (givenUp || request.readableEnded || request.destroyed) return
      request.resume()
    },
  }
}
