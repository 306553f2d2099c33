import { call, field, log } from './answers'
import { killDatabase, postmasterPid, restartDatabase, type Stack } from './stack'

export const NS = '/api/cal/events/v1'

export type Kind = 'write' | 'read (anonymous)' | 'read (signed in)' | 'health'
export type Sample = {
  kind: Kind
  started: number
  ended: number
  status: number
  code?: string
  error?: string
}
export type Ack = { id: number; title: string; at: number }

/** How the load runs: its length, when the database dies and for how long, and how many clients. */
export type LoadOptions = {
  run: string
  seconds: number
  killAfter: number
  downFor: number
  writers: number
  readers: number
}

/** What the load saw: every request, the writes acknowledged and attempted, and when the fault was. */
export type LoadResult = {
  samples: Sample[]
  acks: Ack[]
  attempted: string[]
  t0: number
  killedAt?: number
  restartedAt?: number
}

type Load = LoadResult & {
  base: string
  auth: Record<string, string>
  deadline: number
  run: string
  counter: number
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function writer(load: Load): Promise<void> {
  // A careful client: a write that got no 2xx is sent again, same body and Idempotency-Key, until it does.
  let title: string | undefined
  while (Date.now() < load.deadline) {
    if (!title) load.attempted.push((title = `fault ${load.run} ${++load.counter}`))
    const started = Date.now()
    const reply = await call(load.base, `${NS}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': title, ...load.auth },
      body: JSON.stringify({
        title,
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
      }),
    })
    load.samples.push({
      kind: 'write',
      started,
      ended: Date.now(),
      status: reply.status,
      code: field(reply.body, 'code'),
      error: reply.error,
    })
    if (reply.status >= 200 && reply.status < 300) {
      load.acks.push({ id: field(reply.body, 'id') as number, title, at: Date.now() })
      title = undefined
    } else await pause(100)
  }
}

async function reader(
  load: Load,
  kind: 'read (anonymous)' | 'read (signed in)',
  n: number,
): Promise<void> {
  const paths = [
    `${NS}/events?per_page=5`,
    `${NS}/venues`,
    `${NS}/categories`,
    `${NS}/events?search=fault`,
  ]
  let i = n
  while (Date.now() < load.deadline) {
    const latest = load.acks.at(-1)
    const requestPath =
      i % 5 === 4 && latest ? `${NS}/events/${latest.id}` : paths[i % paths.length]!
    i++
    const started = Date.now()
    const reply = await call(load.base, requestPath, {
      headers: kind === 'read (signed in)' ? load.auth : {},
    })
    load.samples.push({
      kind,
      started,
      ended: Date.now(),
      status: reply.status,
      code: field(reply.body, 'code'),
      error: reply.error,
    })
    if (reply.status >= 400) await pause(100)
  }
}

async function probe(load: Load): Promise<void> {
  while (Date.now() < load.deadline) {
    const started = Date.now()
    const reply = await call(load.base, '/api/health')
    load.samples.push({
      kind: 'health',
      started,
      ended: Date.now(),
      status: reply.status,
      code: field(reply.body, 'status'),
      error: reply.error,
    })
    await pause(250)
  }
}

async function fault(load: Load, stack: Stack, options: LoadOptions): Promise<void> {
  await pause(options.killAfter * 1000)
  const killedAt = (load.killedAt = killDatabase(stack))
  await pause(options.downFor * 1000)
  const restartedAt = (load.restartedAt = await restartDatabase(stack))
  log(
    `PostgreSQL restarted on port ${stack.databasePort} (pid ${postmasterPid(stack.directory)}) after ${((restartedAt - killedAt) / 1000).toFixed(1)} s away`,
  )
}

/** Writers, readers of both kinds and the health probe, side by side, while the fault strikes. */
export async function runLoad(
  stack: Stack,
  auth: Record<string, string>,
  options: LoadOptions,
): Promise<LoadResult> {
  const t0 = Date.now()
  const load: Load = {
    samples: [],
    acks: [],
    attempted: [],
    t0,
    base: stack.base,
    auth,
    deadline: t0 + options.seconds * 1000,
    run: options.run,
    counter: 0,
  }
  const { seconds, writers, readers, killAfter, downFor } = options
  log(
    `load for ${seconds} s: ${writers} writers, ${readers} anonymous and ${readers} signed-in readers, a health probe; kill after ${killAfter} s, down for ${downFor} s`,
  )
  await Promise.all([
    ...Array.from({ length: writers }, () => writer(load)),
    ...Array.from({ length: readers }, (_, n) => reader(load, 'read (anonymous)', n)),
    ...Array.from({ length: readers }, (_, n) => reader(load, 'read (signed in)', n)),
    probe(load),
    fault(load, stack, options),
  ])
  log('load finished')
  const { samples, acks, attempted, killedAt, restartedAt } = load
  return { samples, acks, attempted, t0, killedAt, restartedAt }
}
