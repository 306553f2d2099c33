import {
  APIError,
  AuthenticationError,
  type CollectionAfterLoginHook,
  type CollectionBeforeOperationHook,
  type CollectionConfig,
  type PayloadRequest,
} from 'payload'
import { clearFailures, failuresOf, recordFailure } from '../../database/loginThrottle'
import { LIMITS, takeToken } from '../../database/rateBuckets'
import { clientAddress } from '../clientAddress'

/**
 * Failed sign-ins slow down the one who fails, not the account's owner (docs/operations.md): each
 * subject allows some failures, then asks for a wait that doubles with each further failure, up to
 * its ceiling. The address and the account-on-that-address are throttled hard; the account across
 * all addresses only mildly, so its owner elsewhere waits half a minute at most. Failures are
 * forgotten an hour after the last one.
 */
const RULES = {
  address: { free: Number(process.env.LOGIN_FREE_FAILURES_PER_ADDRESS ?? 10), ceiling: 15 * 60 },
  pair: { free: 3, ceiling: 15 * 60 },
  account: { free: 5, ceiling: 30 },
} as const
const FORGET_SECONDS = 60 * 60

/** A sign-in refused for now, with how long to wait: a 429 with `Retry-After`. */
export class LoginThrottled extends APIError {
  readonly retryAfter: number
  constructor(seconds: number) {
    super(`Too many failed sign-ins: try again in ${seconds} s.`, 429, undefined, true)
    this.retryAfter = seconds
  }
}

function subjectsOf(req: PayloadRequest, email: unknown): Record<keyof typeof RULES, string> {
  const address = clientAddress(req)
  const account = typeof email === 'string' ? email.trim().toLowerCase() : ''
  return { address: `address:${address}`, pair: `pair:${account}|${address}`, account: `account:${account}` }
}

const emailOf = (req: PayloadRequest): unknown => (req.data as { email?: unknown } | undefined)?.email

export const throttleLogin: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'login') return args
  const subjects = subjectsOf(req, (args as { data?: { email?: unknown } }).data?.email)
  const known = await failuresOf(req.payload, Object.values(subjects), FORGET_SECONDS)
  let wait = 0
  for (const [rule, subject] of Object.entries(subjects) as [keyof typeof RULES, string][]) {
    const seen = known.get(subject)
    if (!seen || seen.failures < RULES[rule].free) continue
    const needed = Math.min(RULES[rule].ceiling, 2 ** (seen.failures - RULES[rule].free))
    wait = Math.max(wait, Math.ceil(needed - seen.ago))
  }
  if (wait > 0) throw new LoginThrottled(wait)
  const attempts = LIMITS.login.perMinute
    ? await takeToken(req.payload, `login:address:${clientAddress(req)}`, LIMITS.login.perMinute, LIMITS.login.perMinute / 60)
    : undefined
  if (attempts && !attempts.allowed) throw new LoginThrottled(attempts.retryInSeconds)
  return args
}

type AfterErrorHook = NonNullable<NonNullable<CollectionConfig['hooks']>['afterError']>[number]

export const countFailedLogin: AfterErrorHook = async ({ error, req }) => {
  if (error instanceof LoginThrottled) {
    const headers = req.responseHeaders ?? new Headers()
    headers.set('Retry-After', String(error.retryAfter))
    req.responseHeaders = headers
    return
  }
  if (!(error instanceof AuthenticationError) || !req.url?.includes('/login')) return
  await recordFailure(req.payload, Object.values(subjectsOf(req, emailOf(req))), FORGET_SECONDS)
}

export const clearFailedLogins: CollectionAfterLoginHook = async ({ req, user }) => {
  const subjects = subjectsOf(req, (user as { email?: string }).email)
  await clearFailures(req.payload, [subjects.pair, subjects.account])
  return user
}
