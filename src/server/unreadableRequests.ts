import { maxHeaderSize, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** Node's reasons, as Node's own answer gave their statuses, each with the contract's code and words. */
const REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'rest_headers_too_large',
    `The request’s headers are larger than the server reads (${Math.round(maxHeaderSize / 1024)} KB).`,
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'rest_request_timeout',
    'The request did not arrive whole in time: send it again.',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    'rest_request_too_large',
    'The request’s chunk extensions are larger than the server reads.',
  ],
}

const MALFORMED: [number, string, string] = [
  400,
  'rest_malformed_request',
  'The request is not HTTP the server can read: a header or the request line is malformed.',
]

/**
 * Answers what Node's HTTP parser could not read (a control character in a header, a request line
 * that is not HTTP, headers past Node's limit, a request that did not arrive in time) in the
 * contract's envelope (docs/api.md §11), with the status Node's own answer had, which had no body.
 * There is no request to answer through, so the answer is written to the socket, then it is
 * closed, as Node closes it. A socket that is gone, or whose connection is in the middle of an
 * answer to an earlier request, is only closed.
 */
export function answerUnreadable(error: Error & { code?: string }, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: unknown })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy()
    return
  }
  const [status, code, message] = REFUSALS[error.code ?? ''] ?? MALFORMED
  const body = JSON.stringify({ code, message, data: { status } })
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=UTF-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  )
}
