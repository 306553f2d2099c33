/**
 * HEAD answered as GET without the body (RFC 9110 §9.3.2; WordPress's REST server does the same):
 * CDNs, link checkers and uptime monitors send HEAD, and Payload's router only knows the methods of
 * its endpoints, so it would answer them with 404.
 */
export function headFromGet<A extends unknown[]>(
  get: (request: Request, ...rest: A) => Promise<Response>,
) {
  return async (request: Request, ...rest: A): Promise<Response> => {
    const answer = await get(asGet(request), ...rest)
    await answer.body?.cancel()
    return new Response(null, {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
    })
  }
}

/** The GET a HEAD asks for: the same URL, headers and signal. */
export function asGet(request: Request): Request {
  return new Request(request.url, {
    method: 'GET',
    headers: request.headers,
    signal: request.signal,
  })
}
