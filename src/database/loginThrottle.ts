/**
 * Failed sign-ins counted per subject (`address:…`, `pair:…`) in PostgreSQL (`calendar_login_failures`),
 * so every instance throttles alike (docs/operations.md).
 */
import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery, rawTransaction } from './rawQuery'

/** A subject's allowance: failures that cost nothing, then a wait doubling from 1 s with each further one, up to `ceiling` seconds. */
export type LoginRule = { free: number; ceiling: number }

const list = (subjects: string[]) =>
  sql.join(
    subjects.map((subject) => sql`${subject}`),
    sql`, `,
  )

/**
 * Takes one attempt for every subject at once, holding their rows locked from the read to the count,
 * so that concurrent attempts are counted one after another and no more passwords are checked than
 * the rules allow: 0 when it is taken (and counted as a failure until the sign-in succeeds,
 * `forgiveAttempt`), else the seconds to wait (nothing counted). Failures older than `forgetSeconds`
 * are forgotten.
 */
export async function takeAttempt(
  payload: Payload,
  rules: Record<string, LoginRule>,
  forgetSeconds: number,
): Promise<number> {
  const subjects = Object.keys(rules).sort()
  return rawTransaction(payload, async (run) => {
    await run(sql`insert into calendar_login_failures (subject, failures, last_failure)
                  select subject, 0, now() from unnest(array[${list(subjects)}]::text[]) as subject order by subject
                  on conflict (subject) do nothing`)
    const rows = await run<{ subject: string; failures: number; ago: number }>(
      sql`select subject, case when last_failure > now() - make_interval(secs => ${forgetSeconds}) then failures else 0 end as failures,
                 extract(epoch from now() - last_failure)::float8 as ago
            from calendar_login_failures where subject in (${list(subjects)}) order by subject for update`,
    )
    const wait = Math.max(
      0,
      ...rows.map(({ subject, failures, ago }) => {
        const rule = rules[subject]!
        return failures < rule.free
          ? 0
          : Math.ceil(Math.min(rule.ceiling, 2 ** (failures - rule.free)) - ago)
      }),
    )
    if (wait > 0) return wait
    await run(sql`update calendar_login_failures set
                    failures = case when last_failure > now() - make_interval(secs => ${forgetSeconds}) then failures + 1 else 1 end,
                    last_failure = now()
                  where subject in (${list(subjects)})`)
    return 0
  })
}

/** A sign-in that succeeded: its attempt was no failure. `clear` forgets the subjects' failures altogether (the account on that address). */
export async function forgiveAttempt(
  payload: Payload,
  subjects: string[],
  clear: string[],
): Promise<void> {
  await rawQuery(
    payload,
    sql`update calendar_login_failures set failures = greatest(failures - 1, 0) where subject in (${list(subjects)})`,
  )
  await rawQuery(
    payload,
    sql`delete from calendar_login_failures where subject in (${list(clear)})`,
  )
}

/** Forgets failures older than `forgetSeconds`, which count for nothing any more: the table would otherwise keep every address that ever failed. */
export async function pruneLoginFailures(payload: Payload, forgetSeconds: number): Promise<number> {
  const rows = await rawQuery(
    payload,
    sql`delete from calendar_login_failures where last_failure < now() - make_interval(secs => ${forgetSeconds}) returning 1`,
  )
  return rows.length
}

/** A subject's failures within the last `forgetSeconds` and how long ago the last was (s), if any: a read, no lock. */
export async function failuresOf(
  payload: Payload,
  subject: string,
  forgetSeconds: number,
): Promise<{ failures: number; ago: number } | undefined> {
  const [row] = await rawQuery<{ failures: number; ago: number }>(
    payload,
    sql`select failures, extract(epoch from now() - last_failure)::float8 as ago from calendar_login_failures
         where subject = ${subject} and last_failure > now() - make_interval(secs => ${forgetSeconds})`,
  )
  return row
}

/** Counts one more failure for a subject, in one statement; a count older than `forgetSeconds` starts again. */
export async function recordFailure(
  payload: Payload,
  subject: string,
  forgetSeconds: number,
): Promise<void> {
  await rawQuery(
    payload,
    sql`insert into calendar_login_failures (subject, failures, last_failure) values (${subject}, 1, now())
        on conflict (subject) do update set
          failures = case when calendar_login_failures.last_failure < now() - make_interval(secs => ${forgetSeconds}) then 1 else calendar_login_failures.failures + 1 end,
          last_failure = now()`,
  )
}

export async function clearFailures(payload: Payload, subject: string): Promise<void> {
  await rawQuery(payload, sql`delete from calendar_login_failures where subject = ${subject}`)
}
