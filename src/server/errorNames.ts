import * as payloadExports from 'payload'

/**
 * Payload's errors of a request's making, by the names its `loggingLevels` know them by. Payload
 * names an error after its class, and the production bundle renames classes, so a 404 or a 403 of
 * Payload's REST was logged at the `error` level as if the server had failed, and a plain
 * `APIError` (`Token is either invalid or has expired.`, `Missing required data.`), whose name the
 * bundle leaves empty, was answered `An unknown error occurred.`: Payload's REST gives an error's
 * message only when the error has a name. The names are set back on the classes once, when the
 * calendar's config is made.
 */
const NAMED = [
  'APIError',
  'AuthenticationError',
  'Forbidden',
  'Locked',
  'MissingFile',
  'NotFound',
  'QueryError',
  'UnauthorizedError',
  'ValidationError',
] as const

export function keepErrorNames(): void {
  for (const name of NAMED) Object.defineProperty(payloadExports[name], 'name', { value: name })
}
