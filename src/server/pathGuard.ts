import { errorResponse, RestError } from './errors'

/**
 * A path with malformed percent-encoding (`%FF`, `%C0%AF`, `%zz`) is the client's mistake: a 400 in
 * the namespace's shape. Next.js's router and Payload's both decode segments with
 * `decodeURIComponent` and would answer it with a bare 500.
 */
export function malformedPathResponse(request: Request): Response | undefined {
  try {
    decodeURIComponent(new URL(request.url).pathname)
    return undefined
  } catch {
    return errorResponse(
      RestError.invalidParams({ path: 'Malformed percent-encoding in the path.' }),
    )
  }
}
