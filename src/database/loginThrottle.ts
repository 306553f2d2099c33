import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from './rawQuery'

/**
 * Failed sign-ins counted per subject (`address:…`, `account:…`, `pair:…`) in PostgreSQL, so every
 * instance throttles alike (docs/operations.md). Unlogged: counters need no crash safety.
 */
export async function installLoginThrottle(payload: Payload): Promise<void> {
  await rawQuery(
    payload,
    sql`do $install$
    begin
      perform pg_advisory_xact_lock(hashtext('calendar_login_failures'));
      create unlogged table if not exists calendar_login_failures (
        subject text primary key,
        failures integer not null,
        last_failure timestamptz not null
      );
    end $install$`,
  )
}

/** How many failures each subject has, counting only failures within the last `forgetSeconds`, and how long ago the last was. */
export async function failuresOf(payload: Payload, subjects: string[], forgetSeconds: number): Promise<Map<string, { failures: number; ago: number }>> {
  const rows = await rawQuery<{ subject: string; failures: number; ago: number }>(
    payload,
    sql`select subject, failures, extract(epoch from now() - last_failure)::float8 as ago from calendar_login_failures
         where subject in (${sql.join(
           subjects.map((subject) => sql`${subject}`),
           sql`, `,
         )}) and last_failure > now() - make_interval(secs => ${forgetSeconds})`,
  )
  return new Map(rows.map((row) => [row.subject, { failures: row.failures, ago: row.ago }]))
}

/** Counts one more failure for each subject; a count older than `forgetSeconds` starts again. */
export async function recordFailure(payload: Payload, subjects: string[], forgetSeconds: number): Promise<void> {
  for (const subject of subjects) {
    await rawQuery(
      payload,
      sql`insert into calendar_login_failures (subject, failures, last_failure) values (${subject}, 1, now())
          on conflict (subject) do update set
            failures = case when calendar_login_failures.last_failure < now() - make_interval(secs => ${forgetSeconds}) then 1 else calendar_login_failures.failures + 1 end,
            last_failure = now()`,
    )
  }
}

/** Forgets the failures of subjects (a successful sign-in clears its account's). */
export async function clearFailures(payload: Payload, subjects: string[]): Promise<void> {
  await rawQuery(
    payload,
    sql`delete from calendar_login_failures where subject in (${sql.join(
      subjects.map((subject) => sql`${subject}`),
      sql`, `,
    )})`,
  )
}
