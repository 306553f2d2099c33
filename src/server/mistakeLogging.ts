import type { Payload } from 'payload'
import { MALFORMED_FORM } from './payloadRestGuard'

type Levels = Payload['config']['loggingLevels']
type Level = NonNullable<Levels[keyof Levels]>

/**
 * The level an error Payload logs should have had, when its name did not say: Payload's `logError`
 * looks the level up by the error's name (`loggingLevels`) and logs every other name as the server's
 * failure. So a plain `APIError` of a request's making (`Missing ID of document to update.`, 400), a
 * GraphQL error around a `ValidationError`, and busboy's error for a multipart body cut short (answered
 * 400, `malformedFormAfterError`) were logged as errors (docs/api.md §11). Undefined: the level stands.
 */
function mistakeLevel(error: unknown, levels: Levels): Level | undefined {
  const named = levels as Partial<Record<string, Level>>
  if (!(error instanceof Error) || named[error.name] !== undefined) return undefined
  // A GraphQL error carries what a resolver threw as its `originalError`.
  const cause = (error as { originalError?: unknown }).originalError
  const thrown = cause instanceof Error ? cause : error
  if (thrown !== error && named[thrown.name] !== undefined) return named[thrown.name]
  const status = (thrown as { status?: unknown }).status
  if (typeof status === 'number' && status >= 400 && status < 500) return 'info'
  return MALFORMED_FORM.test(thrown.message) ? 'info' : undefined
}

/**
 * Logs the request's mistakes that Payload's `logError` would log as errors at their level, as it
 * logs those it knows by name (a message, no stack). Only `logError`'s own calls are read, an object
 * of nothing but the error: the calendar's jobs and other callers that log a failure with words of
 * their own keep their level.
 */
export function logMistakesAtTheirLevel(payload: Payload): void {
  const logger = payload.logger
  const levels = payload.config.loggingLevels
  const logged = logger.error.bind(logger)
  logger.error = ((first: unknown, ...rest: unknown[]) => {
    const only = first && typeof first === 'object' && Object.keys(first).length === 1
    const level =
      only && rest.length === 0 ? mistakeLevel((first as { err?: unknown }).err, levels) : undefined
    if (level === undefined || level === 'error') return logged(first as object, ...(rest as []))
    if (level === false) return
    const error = (first as { err: Error }).err
    logger[level]({ msg: error.message })
  }) as typeof logger.error
}
