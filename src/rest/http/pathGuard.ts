import { errorResponse, RestError } from './errors'

/**
 * Payload's router decodes path segments with `decodeURIComponent` and answers a malformed one
 * (`%FF`, `%C0%AF`) with a 500: such paths are the client's mistake, a 400 in the namespace's shape.
 */
export function withDecodablePath<A extends unknown[]>(handler: (request: Request, ...rest: A) => Promise<Response>) {
  return (request: Request, ...rest: A): Promise<Response> => {
    try {
      decodeURIComponent(new URL(request.url).pathname)
    } catch {
      return Promise.resolve(errorResponse(RestError.invalidParams({ path: 'Malformed percent-encoding in the path.' })))
    }
    return handler(request, ...rest)
  }
}
