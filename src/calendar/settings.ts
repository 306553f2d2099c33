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
 * What a setting's value may be: a number, or a whole one, at least `least` or above `above`; with
 * `orOff`, 0 too (the setting's "off").
 */
type Rule = { whole?: true; orOff?: true } & ({ least: number } | { above: number })

function describe(rule: Rule): string {
  const kind = rule.whole ? 'a whole number' : 'a number'
  const bound = 'least' in rule ? `${kind}, at least ${rule.least}` : `${kind} above ${rule.above}`
  return rule.orOff ? `0 or ${bound}` : bound
}

/** `fallback` when `name` is unset or empty; its value when it keeps `rule`; else an error naming it. */
function readSetting(env: Env, name: string, fallback: number, rule: Rule): number {
  const given = env[name]
  if (given === undefined || given.trim() === '') return fallback
  const value = Number(given)
  const fits =
    (rule.orOff && value === 0) ||
    ((rule.whole ? Number.isInteger(value) : Number.isFinite(value)) &&
      ('least' in rule ? value >= rule.least : value > rule.above))
  if (!fits) throw new Error(`${name} must be ${describe(rule)} (got ${given})`)
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
  DATABASE_DEADLINE_MS: { fallback: 30_000, rule: { ...whole(1000), orOff: true } },
  /** Proxies of the operator's own in front of the app, whose forwarding headers are believed. */
  TRUSTED_PROXY_HOPS: { fallback: 0, rule: whole(0) },
  /** The longest a request waits for its turn while the instance sheds; 0 turns shedding off. */
  SHED_QUEUE_MS: { fallback: 500, rule: whole(0) },
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
  IMPORT_REQUEST_SECONDS: { fallback: 60, rule: { above: 0 } },
  IMPORT_SUBSCRIPTIONS_AT_ONCE: { fallback: 3, rule: whole(1) },
  /** Webhooks' deliveries (`webhooks/deliver.ts`). */
  WEBHOOK_MAX_FAILURES: { fallback: 10, rule: whole(1) },
  WEBHOOK_RETRY_BASE_SECONDS: { fallback: 30, rule: { above: 0 } },
  WEBHOOK_ENDPOINTS_AT_ONCE: { fallback: 3, rule: whole(1) },
  /** Seconds after which a job whose instance stopped beating is taken as abandoned. */
  JOBS_ABANDONED_AFTER_SECONDS: { fallback: 90, rule: { above: 0 } },
} satisfies Record<string, { fallback: number; rule: Rule }>

export type NumberSettingName = keyof typeof NUMBER_SETTINGS

/** The value of one of the number settings: its default when unset, an error when it is wrong. */
export function numberSetting(name: NumberSettingName, env: Env = process.env): number {
  const { fallback, rule } = NUMBER_SETTINGS[name]
  return readSetting(env, name, fallback, rule)
}

/** Reads every setting of the table, so that a wrong one stops the server at start rather than a request. */
export function readSettingsAtStart(env: Env): void {
  for (const name of Object.keys(NUMBER_SETTINGS) as NumberSettingName[]) numberSetting(name, env)
}
