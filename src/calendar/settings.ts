/**
 * Settings an operator gives in the environment (docs/operations.md, "Settings") that are numbers. A
 * wrong one stops the server at start with the reason (`scripts/server.ts` reads them all before
 * Next starts): read with `Number()` it was NaN, and every comparison with NaN is false, so a typo in
 * `MAX_BODY_BYTES` read bodies of any size and one in `SHED_MIN_IN_FLIGHT` refused every request;
 * read with a fallback, a typo in `ANSWER_CACHE_MB` turned the cache off and one in a rate limit or an
 * import's bound quietly put its default in place of the operator's value.
 */
type Env = Record<string, string | undefined>

/**
 * What a setting's value may be: a number, or a whole one, at least `least` or above `above`, and
 * at most `most` where a larger one would break what reads it; with `orOff`, 0 too (the setting's
 * "off").
 */
type Rule = { whole?: true; orOff?: true; most?: number } & ({ least: number } | { above: number })

function describe(rule: Rule): string {
  const kind = rule.whole ? 'a whole number' : 'a number'
  const lower = 'least' in rule ? `${kind}, at least ${rule.least}` : `${kind} above ${rule.above}`
  const bound = rule.most === undefined ? lower : `${lower} and at most ${rule.most}`
  return rule.orOff ? `0 or ${bound}` : bound
}

/**
 * The longest a Node timer waits, in milliseconds: past it, `setTimeout` and `setInterval` fire after
 * 1 ms instead, so a deadline meant as "very long" gave up on every statement at once.
 */
const TIMER_MS_MAX = 2 ** 31 - 1
/** The same in seconds, for settings a timer multiplies by 1000 (and a heartbeat divides by 4 again). */
const TIMER_SECONDS_MAX = Math.floor(TIMER_MS_MAX / 1000)

/** A setting given a value it does not take: the server stops at start with this one line. */
export class SettingError extends Error {
  override name = 'SettingError'
}

/** `fallback` when `name` is unset or empty; its value when it keeps `rule`; else an error naming it. */
function readSetting(env: Env, name: string, fallback: number, rule: Rule): number {
  const given = env[name]
  if (given === undefined || given.trim() === '') return fallback
  const value = Number(given)
  const fits =
    (rule.orOff && value === 0) ||
    ((rule.whole ? Number.isInteger(value) : Number.isFinite(value)) &&
      ('least' in rule ? value >= rule.least : value > rule.above) &&
      value <= (rule.most ?? Infinity))
  if (!fits) throw new SettingError(`${name} must be ${describe(rule)} (got ${given})`)
  return value
}

const whole = (least: number) => ({ whole: true, least }) as const

/**
 * The number settings, each with its default and what it may be, read through `numberSetting` by the
 * modules that use them.
 */
const NUMBER_SETTINGS = {
  /** Connections per instance: transactions take at most this minus 2 (`database/transactionSlots.ts`). */
  DATABASE_POOL_MAX: { fallback: 10, rule: whole(3) },
  /**
   * Milliseconds the database has to answer a statement or a new connection before the app gives up
   * on that connection (`database/statementDeadline.ts`); 0 waits for good. At least a second: a
   * value meant as seconds (`30`) would give up on every statement.
   */
  DATABASE_DEADLINE_MS: {
    fallback: 30_000,
    rule: { ...whole(1000), orOff: true, most: TIMER_MS_MAX },
  },
  /** Proxies of the operator's own in front of the app, whose forwarding headers are believed. */
  TRUSTED_PROXY_HOPS: { fallback: 0, rule: whole(0) },
  /** The longest a request waits for its turn while the instance sheds; 0 turns shedding off. */
  SHED_QUEUE_MS: { fallback: 500, rule: { ...whole(0), most: TIMER_MS_MAX } },
  /** Requests of a kind let in whatever the measured rate (with none, a cold lane would refuse all). */
  SHED_MIN_IN_FLIGHT: { fallback: 32, rule: whole(1) },
  /** Namespace answers one instance makes at once (`server/turns.ts`). */
  ANSWER_CONCURRENCY: { fallback: 8, rule: whole(1) },
  /** Namespace writes one instance runs at once (`server/writeLane.ts`). */
  WRITE_CONCURRENCY: { fallback: 4, rule: whole(1) },
  /** The largest body the namespace reads. */
  MAX_BODY_BYTES: { fallback: 2 * 1024 * 1024, rule: whole(1) },
  /** Failed sign-ins an address makes before its waits start. */
  LOGIN_FREE_FAILURES_PER_ADDRESS: { fallback: 10, rule: whole(0) },
  /** Seconds shared caches may keep an anonymous namespace answer. */
  CACHE_MAX_AGE: { fallback: 0, rule: whole(0) },
  /** The megabytes kept answers and their pages' records may take; 0 turns both off. */
  ANSWER_CACHE_MB: { fallback: 32, rule: { least: 0 } },
  /** Requests a client may make a minute, by kind; 0 turns the kind's limit off. */
  RATE_LIMIT_READS_PER_MINUTE: { fallback: 6000, rule: { least: 0 } },
  RATE_LIMIT_WRITES_PER_MINUTE: { fallback: 600, rule: { least: 0 } },
  RATE_LIMIT_LOGINS_PER_MINUTE: { fallback: 30, rule: { least: 0 } },
  /** What one import may read from another server (`imports/limits.ts`). */
  IMPORT_MAX_ANSWER_MB: { fallback: 20, rule: { above: 0 } },
  IMPORT_MAX_RUN_MB: { fallback: 1024, rule: { above: 0 } },
  IMPORT_MAX_PAGES: { fallback: 10_000, rule: whole(1) },
  IMPORT_REQUEST_SECONDS: { fallback: 60, rule: { above: 0, most: TIMER_SECONDS_MAX } },
  IMPORT_SUBSCRIPTIONS_AT_ONCE: { fallback: 3, rule: whole(1) },
  /** Webhooks' deliveries (`webhooks/deliver.ts`). */
  WEBHOOK_MAX_FAILURES: { fallback: 10, rule: whole(1) },
  WEBHOOK_RETRY_BASE_SECONDS: { fallback: 30, rule: { above: 0 } },
  WEBHOOK_ENDPOINTS_AT_ONCE: { fallback: 3, rule: whole(1) },
  /** Seconds after which a job whose instance stopped beating is taken as abandoned. */
  JOBS_ABANDONED_AFTER_SECONDS: { fallback: 90, rule: { least: 1, most: TIMER_SECONDS_MAX } },
} satisfies Record<string, { fallback: number; rule: Rule }>

export type NumberSettingName = keyof typeof NUMBER_SETTINGS

/** The value of one of the number settings: its default when unset, an error when it is wrong. */
export function numberSetting(name: NumberSettingName, env: Env = process.env): number {
  const { fallback, rule } = NUMBER_SETTINGS[name]
  return readSetting(env, name, fallback, rule)
}

/**
 * The settings that are on or off, each with its default. Read as `!== 'false'`, `0`, `no` or `FALSE`
 * left a setting on without a word (`PUBLIC_PAGES=0` served the pages); the usual spellings of both
 * are taken now, in any case, and anything else stops the server at start.
 */
const BOOLEAN_SETTINGS = {
  JOBS_AUTORUN: true,
  PUBLIC_PAGES: true,
  BACKUP_BEFORE_MIGRATE: true,
  DATABASE_PREPARED_STATEMENTS: true,
  QUERY_COUNT_HEADER: false,
  ALLOW_PRIVATE_IMAGE_URLS: false,
  IMPORT_ALLOW_PRIVATE: false,
  WEBHOOK_ALLOW_PRIVATE: false,
} satisfies Record<string, boolean>

export type BooleanSettingName = keyof typeof BOOLEAN_SETTINGS

const ON = new Set(['true', '1', 'yes', 'on'])
const OFF = new Set(['false', '0', 'no', 'off'])

/** Whether one of the on-or-off settings is on: its default when unset or empty, an error when it is neither. */
export function booleanSetting(name: BooleanSettingName, env: Env = process.env): boolean {
  const given = env[name]?.trim().toLowerCase()
  if (!given) return BOOLEAN_SETTINGS[name]
  if (ON.has(given)) return true
  if (OFF.has(given)) return false
  throw new SettingError(
    `${name} must be true or false (or 1, yes, on; 0, no, off) (got ${env[name]})`,
  )
}

/** pino's levels, which Payload's logger takes (`LOG_LEVEL`). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** `LOG_LEVEL`, `info` when unset: any other word made the logger, and with it every request, fail. */
export function logLevel(env: Env = process.env): string {
  const given = env.LOG_LEVEL?.trim().toLowerCase()
  if (!given) return 'info'
  if (LOG_LEVELS.includes(given)) return given
  throw new SettingError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${env.LOG_LEVEL})`)
}

/** Reads every setting of the tables, so that a wrong one stops the server at start rather than a request. */
export function readSettingsAtStart(env: Env): void {
  for (const name of Object.keys(NUMBER_SETTINGS) as NumberSettingName[]) numberSetting(name, env)
  for (const name of Object.keys(BOOLEAN_SETTINGS) as BooleanSettingName[])
    booleanSetting(name, env)
  logLevel(env)
}
