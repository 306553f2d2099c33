import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * Answers what Node's HTTP parser could not read (a control character in a header, a request line
 * that is not HTTP, headers past 16 KB) in the contract's envelope (docs/api.md §11): Node answered
 * a bare `400 Bad Request` with no body. There is no request to answer through, so the answer is
 * written to the socket, then it is closed, as Node closes it. A socket that is gone, or whose
 * connection is in the middle of an answer to an earlier request, is only closed.
 */
export function answerUnreadable(error: Error & { code?: string }, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: unknown })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || answering) {
    socket.destroy()
    return
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const body = JSON.stringify({
    code: status === 431 ? 'rest_headers_too_large' : 'rest_malformed_request',
    message:
      status === 431
        ? 'The request’s headers are larger than the server reads (16 KB).'
        : 'The request is not HTTP the server can read: a header or the request line is malformed.',
    data: { status },
  })
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
