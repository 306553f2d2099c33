import { pbkdf2 } from 'node:crypto'
import { promisify } from 'node:util'
import {
  APIError,
  type CollectionAfterLoginHook,
  type CollectionSlug,
  type CollectionBeforeOperationHook,
  type CollectionConfig,
  type PayloadRequest,
} from 'payload'
import { forgiveAttempt, takeAttempt, type LoginRule } from '../../database/loginThrottle'
import { LIMITS, takeToken } from '../../database/rateBuckets'
import { numberSetting } from '../../calendar/settings'
import { clientAddress } from '../clientAddress'

/**
 * Failed sign-ins slow down the one who fails, not the account's owner (docs/operations.md): the
 * address, and the account on that address, each allow some failures, then ask for a wait that
 * doubles with each further failure, up to its ceiling. Nothing is counted per account across
 * addresses: that count is the attacker's to raise, and would lock the owner out. Failures are
 * forgotten an hour after the last one.
 *
 * Payload's login operation runs these hooks whichever door it came through (REST, GraphQL, the
 * admin), and the attempt is counted before the password is checked, so parallel guesses are
 * counted one after another.
 */
const RULES = {
  address: { free: numberSetting('LOGIN_FREE_FAILURES_PER_ADDRESS'), ceiling: 15 * 60 },
  pair: { free: 3, ceiling: 15 * 60 },
} as const satisfies Record<string, LoginRule>
export const FORGET_SECONDS = 60 * 60

/** The name `loggingLevels` knows a throttled sign-in by (the bundler renames classes). */
export const LOGIN_THROTTLED = 'LoginThrottled'

/** A sign-in refused for now, with how long to wait: a 429 with `Retry-After`. */
export class LoginThrottled extends APIError {
  readonly retryAfter: number
  constructor(seconds: number) {
    super(`Too many failed sign-ins: try again in ${seconds} s.`, 429, undefined, true)
    this.retryAfter = seconds
    this.name = LOGIN_THROTTLED
  }
}

function subjectsOf(req: PayloadRequest, email: unknown): Record<keyof typeof RULES, string> {
  const address = clientAddress(req)
  const account = typeof email === 'string' ? email.trim().toLowerCase() : ''
  return { address: `address:${address}`, pair: `pair:${account}|${address}` }
}

export const throttleLogin: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'login') return args
  const subjects = subjectsOf(req, (args as { data?: { email?: unknown } }).data?.email)
  const attempts = LIMITS.login.perMinute
    ? await takeToken(
        req.payload,
        `login:${subjects.address}`,
        LIMITS.login.perMinute,
        LIMITS.login.perMinute / 60,
      )
    : undefined
  if (attempts && !attempts.allowed) throw new LoginThrottled(attempts.retryInSeconds)
  const wait = await takeAttempt(
    req.payload,
    { [subjects.address]: RULES.address, [subjects.pair]: RULES.pair },
    FORGET_SECONDS,
  )
  if (wait > 0) throw new LoginThrottled(wait)
  return args
}

/**
 * Payload's password check as it runs for a stored account: PBKDF2-SHA256, 600,000 rounds, 32 bytes
 * (`payload/dist/auth/strategies/local/generatePasswordSaltHash.js`), which Payload does not export.
 */
const PASSWORD_CHECK = { rounds: 600_000, bytes: 32, digest: 'sha256' } as const

/**
 * A sign-in with an address no account has costs what one with a wrong password costs. Payload
 * refuses the first before any password check (10 ms against 110–210 ms here), so the time of a
 * refusal told which addresses have accounts, past the throttle's free attempts from each address.
 * The check runs on the thread pool, as Payload's does; its result is thrown away.
 */
export const evenLoginTime: CollectionBeforeOperationHook = async ({
  args,
  collection,
  operation,
  req,
}) => {
  if (operation !== 'login') return args
  const email = (args as { data?: { email?: unknown } }).data?.email
  if (typeof email !== 'string') return args
  const { totalDocs } = await req.payload.count({
    collection: collection.slug as CollectionSlug,
    where: { email: { equals: email.trim().toLowerCase() } },
    overrideAccess: true,
    req,
  })
  if (totalDocs === 0) {
    const { rounds, bytes, digest } = PASSWORD_CHECK
    await promisify(pbkdf2)(email, 'no account', rounds, bytes, digest)
  }
  return args
}

type AfterErrorHook = NonNullable<NonNullable<CollectionConfig['hooks']>['afterError']>[number]

/** The wait goes out as `Retry-After` where the door answers with headers (REST). */
export const announceWait: AfterErrorHook = ({ error, req }) => {
  if (!(error instanceof LoginThrottled)) return
  const headers = req.responseHeaders ?? new Headers()
  headers.set('Retry-After', String(error.retryAfter))
  req.responseHeaders = headers
}

export const forgiveLogin: CollectionAfterLoginHook = async ({ req, user }) => {
  const subjects = subjectsOf(req, (user as { email?: string }).email)
  await forgiveAttempt(req.payload, [subjects.address], [subjects.pair])
  return user
}
