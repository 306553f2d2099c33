import {
  CONFLICT_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
  RETRY_AFTER_SECONDS,
} from '../database/connectionErrors'
import { Refusal } from '../operations/refusal'
import { responseOf, type Sent } from './sent'

/**
 * An error the namespace answers with on purpose: rendered as `{ code, message, data: { status, ... } }`
 * with the HTTP status equal to `data.status`, the envelope websites written against the upstream API
 * parse. The operations' refusals are rendered the same way.
 */
export class RestError extends Refusal {
  static missingParams(names: string[]): RestError {
    return new RestError(
      'rest_missing_callback_param',
      `Missing parameter(s): ${names.join(', ')}`,
      400,
      { params: names },
    )
  }

  static noRoute(): RestError {
    return new RestError(
      'rest_no_route',
      'No route was found matching the URL and request method.',
      404,
    )
  }

  /** Not upstream: outside the namespace, a method no route of the app serves (`unservedMethods.ts`). */
  static methodNotAllowed(allowed: readonly string[]): RestError {
    const error = new RestError(
      'rest_method_not_allowed',
      'The request method is not served here.',
      405,
    )
    error.headers.Allow = allowed.join(', ')
    return error
  }

  static invalidJson(): RestError {
    return new RestError('rest_invalid_json', 'Invalid JSON body passed.', 400)
  }

  /** Not upstream (PHP silently reads a broken multipart body as empty); a client is better told why nothing happened. */
  static invalidMultipart(): RestError {
    return new RestError('rest_invalid_multipart', 'Invalid multipart/form-data body passed.', 400)
  }

  /** 401 asks an anonymous client to authenticate; a signed-in user who lacks the right gets 403. */
  static forbidden(signedIn: boolean): RestError {
    return new RestError(
      'rest_forbidden',
      'Sorry, you are not allowed to do that.',
      signedIn ? 403 : 401,
    )
  }

  /** The instance has more requests in flight than it serves in its queue bound (docs/operations.md). */
  static overloaded(): RestError {
    return new RestError('rest_overloaded', 'The server is busy: try again shortly.', 503)
  }

  /** The database refused, reset or ended the connection: the request may succeed when retried (docs/api.md §11). */
  static databaseUnavailable(): RestError {
    return new RestError('rest_database_unavailable', DATABASE_UNAVAILABLE, 503)
  }

  /** PostgreSQL undid the write for another's sake (a deadlock): nothing was written, and it may be sent again (docs/api.md §11). */
  static writeConflict(): RestError {
    const error = new RestError(
      'rest_write_conflict',
      'Another write to the same items ran at the same time, and this one was undone: send it again.',
      409,
    )
    error.headers['Retry-After'] = CONFLICT_RETRY_AFTER_SECONDS
    return error
  }

  /** A bug: what the client is told, the details being for the server's log alone. */
  static internal(): RestError {
    return new RestError('rest_internal_error', 'The server could not complete the request.', 500)
  }

  /**
   * Not upstream: the body ended before its `Content-Length` or its last chunk, its caller gone or its
   * connection broken. Whoever is still there is told so; the log is not given a stack for a client's
   * disconnection, as it is for a fault of the server's.
   */
  static incompleteBody(): RestError {
    return new RestError(
      'rest_incomplete_body',
      'The request body ended before it was complete.',
      400,
    )
  }

  static tooLarge(limit: number): RestError {
    return new RestError(
      'rest_request_too_large',
      `The request body is larger than the limit of ${limit} bytes.`,
      413,
    )
  }
}

const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8'

/**
 * Renders any thrown value as an error response. Only a `RestError` reaches the client as such: anything
 * else is a bug whose message or stack may reveal internals, so the client gets a generic 500 and the
 * details go to the server log.
 */
export function errorResponse(error: unknown, headers?: HeadersInit): Response {
  return responseOf(errorSent(error, headers))
}

/** `errorResponse`'s answer as sent (`sent.ts`). */
export function errorSent(error: unknown, headers?: HeadersInit): Sent {
  const restError = error instanceof Refusal ? error : internalError(error)
  const responseHeaders = new Headers(headers)
  for (const [name, value] of Object.entries(restError.headers)) responseHeaders.set(name, value)
  responseHeaders.set('Content-Type', JSON_CONTENT_TYPE)
  // A 503 is temporary: tell clients and load balancers when to come back.
  if (restError.status === 503) responseHeaders.set('Retry-After', RETRY_AFTER_SECONDS)
  const body = {
    code: restError.code,
    message: restError.message,
    data: { status: restError.status, ...restError.data },
  }
  return { status: restError.status, headers: responseHeaders, body: JSON.stringify(body) }
}

function internalError(error: unknown): RestError {
  console.error(error)
  return RestError.internal()
}
