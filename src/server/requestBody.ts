import type { IncomingMessage } from 'node:http'
import { numberSetting } from '../calendar/settings'
import { RestError } from './errors'

/** `MAX_BODY_BYTES`: the largest body the namespace reads (docs/operations.md). */
let maxBody: number | undefined
/** Read when first asked, not at import: a wrong value stops the server at start in one line. */
export const maxBodyBytes = () => (maxBody ??= numberSetting('MAX_BODY_BYTES'))

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

type Bytes = Uint8Array<ArrayBuffer>

/**
 * A body's bytes, at most `maxBytes` of them (else a 413), counted while read because Content-Length
 * may be absent (chunked) or lie: the namespace's bodies and the public pages' password form.
 */
export async function readAtMost(
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
