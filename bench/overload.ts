import autocannon from 'autocannon'
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { percentile } from './percentile'
import { dayOffset, pathsDrawnBy, variedList } from './varied'

/**
 * `npm run bench`'s overload scenarios (`--scenarios o`, docs/operations.md "Load shedding"): 500
 * connections for 30 s, many more than an instance makes answers for in `SHED_QUEUE_MS`, on the list
 * the front door keeps (a), on the paths no cache serves, varied lists (h) and a signed-in editor's
 * list (i), and on a mix of signed-in writes (w: creations and updates through the namespace). For
 * each: the answers served and the p99 of their latency, the refusals (503) and how fast they came,
 * anything else; the same answers as the server timed them; for the writes, whether every write
 * acknowledged (2xx) is stored.
 */

const OVERLOAD = { connections: 500, seconds: 30 }
const EVENT_LIST = '/api/cal/events/v1/events'

type Figures = {
  load: string
  size: number
  served: number
  servedP99: number
  refused: number
  refusalP50: number
  refusalP99: number
  /** Answers neither served nor refused 503, by status; transport errors and timeouts under 0. */
  other: Record<number, number>
  /**
   * The same answers timed by the server itself (`calendar_http_request_duration_seconds`, from the
   * request's arrival to the end of its answer), as the upper bound of the histogram's bucket: what the
   * load generator saw beyond this, the request spent waiting to be read or its answer to be taken.
   */
  server: { servedP99: number; refusalP50: number; refusalP99: number }
  /** The server thread's event-loop delay over the load (ms, `calendar_event_loop_delay_seconds`): how long a ready socket waited to be read. */
  loopDelay: { p99: number; max: number }
  /** Writes only: acknowledged, and of those not found as acknowledged afterwards. */
  writes?: { acknowledged: number; missing: number }
}

const figures: Figures[] = []

type Tally = {
  served: number[]
  refused: number[]
  other: Record<number, number>
  server: Figures['server']
  loopDelay: Figures['loopDelay']
}

/** Cumulative counts of the duration histogram's buckets (upper bound in s), over the namespace's routes: answers served, and refusals. */
type Buckets = {
  served: Map<number, number>
  refused: Map<number, number>
  /** Since the previous scrape, which reset it. */
  loopDelay: Figures['loopDelay']
}

async function serverBuckets(base: string): Promise<Buckets> {
  const text = await (await fetch(`${base}/metrics`)).text()
  const delay = (quantile: string) =>
    Math.round(
      Number(
        new RegExp(
          `^calendar_event_loop_delay_seconds\\{quantile="${quantile}"\\} (\\S+)$`,
          'm',
        ).exec(text)?.[1] ?? NaN,
      ) * 1000,
    )
  const buckets: Buckets = {
    served: new Map(),
    refused: new Map(),
    loopDelay: { p99: delay('0.99'), max: delay('1') },
  }
  for (const found of text.matchAll(
    /^calendar_http_request_duration_seconds_bucket\{(.*)\} (\d+)$/gm,
  )) {
    const labels = Object.fromEntries(
      [...found[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]),
    )
    if (labels.route === 'other') continue
    const status = Number(labels.status)
    const kind =
      status === 503
        ? buckets.refused
        : (status >= 200 && status < 300) || status === 304
          ? buckets.served
          : undefined
    const bound = labels.le === '+Inf' ? Infinity : Number(labels.le)
    kind?.set(bound, (kind.get(bound) ?? 0) + Number(found[2]))
  }
  return buckets
}

/** The bucket bound (ms) below which a share `q` of the answers counted between two scrapes came. */
function bucketPercentile(
  before: Map<number, number>,
  after: Map<number, number>,
  q: number,
): number {
  const bounds = [...after.keys()].sort((a, b) => a - b)
  const counts = bounds.map((bound) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0))
  const total = counts.at(-1) ?? 0
  const index = counts.findIndex((count) => count >= total * q)
  return total && index >= 0 ? bounds[index]! * 1000 : NaN
}

async function load(base: string, options: autocannon.Options): Promise<Tally> {
  const tally: Tally = {
    served: [],
    refused: [],
    other: {},
    server: { servedP99: NaN, refusalP50: NaN, refusalP99: NaN },
    loopDelay: { p99: NaN, max: NaN },
  }
  const before = await serverBuckets(base)
  const result = await autocannon({
    ...options,
    connections: OVERLOAD.connections,
    duration: OVERLOAD.seconds,
    timeout: 30,
    setupClient: (client) =>
      client.on('response', (status: number, _bytes: number, ms: number) => {
        if ((status >= 200 && status < 300) || status === 304) tally.served.push(ms)
        else if (status === 503) tally.refused.push(ms)
        else tally.other[status] = (tally.other[status] ?? 0) + 1
      }),
  })
  if (result.errors + result.timeouts) tally.other[0] = result.errors + result.timeouts
  const after = await serverBuckets(base)
  tally.server = {
    servedP99: bucketPercentile(before.served, after.served, 0.99),
    refusalP50: bucketPercentile(before.refused, after.refused, 0.5),
    refusalP99: bucketPercentile(before.refused, after.refused, 0.99),
  }
  tally.loopDelay = after.loopDelay
  return tally
}

function record(load: string, size: number, tally: Tally, writes?: Figures['writes']): void {
  const row: Figures = {
    load,
    size,
    served: tally.served.length,
    servedP99: Math.round(percentile(tally.served, 0.99)),
    refused: tally.refused.length,
    refusalP50: percentile(tally.refused, 0.5),
    refusalP99: percentile(tally.refused, 0.99),
    other: tally.other,
    server: tally.server,
    loopDelay: tally.loopDelay,
    writes,
  }
  console.error(JSON.stringify(row))
  figures.push(row)
}

type Written = { id: number; title: string }
/** What a connection sent last (autocannon keeps one context per connection, which sends one request at a time). */
type Sent = { sent?: { id?: number; title: string } }

/**
 * Signed-in writes, half creations and half updates of events that exist (each updated once, so the
 * title it was given is the one it must keep); then every write acknowledged is looked for in PostgreSQL.
 */
async function writeMix(
  base: string,
  adminToken: string,
  db: pg.Client,
): Promise<[Tally, Figures['writes']]> {
  const { rows } = await db.query<{ id: number }>(
    `select id from events where parent_id is null and recurrence is null order by random()`,
  )
  const toUpdate = rows.map((row) => row.id)
  const acknowledged: Written[] = []
  const day = dayOffset(30)
  const tally = await load(base, {
    url: base,
    requests: [
      {
        setupRequest: (request, context) => {
          const title = `Overload ${randomUUID()}`
          const id = Math.random() < 0.5 ? toUpdate.pop() : undefined
          Object.assign(context, { sent: { id, title } } satisfies Sent)
          const body = id
            ? { title }
            : {
                title,
                status: 'publish',
                start_date: `${day} 10:00:00`,
                end_date: `${day} 11:00:00`,
              }
          return {
            ...request,
            method: 'POST',
            path: id ? `${EVENT_LIST}/${id}` : EVENT_LIST,
            body: JSON.stringify(body),
          }
        },
        onResponse: (status, body, context) => {
          if (status < 200 || status >= 300) return
          const { sent } = context as Sent
          if (sent)
            acknowledged.push({
              id: sent.id ?? (JSON.parse(body) as { id: number }).id,
              title: sent.title,
            })
        },
      },
    ],
    headers: { Authorization: `JWT ${adminToken}`, 'Content-Type': 'application/json' },
  })
  const stored = await db.query<Written>(
    `select _parent_id as id, title from events_locales where _locale = 'en' and _parent_id = any($1)`,
    [acknowledged.map((write) => write.id)],
  )
  const titles = new Map(stored.rows.map((row) => [row.id, row.title]))
  const missing = acknowledged.filter((write) => titles.get(write.id) !== write.title).length
  return [tally, { acknowledged: acknowledged.length, missing }]
}

/** The four overload runs on one dataset, one after the other; `editor` is the `Authorization` of a signed-in editor. */
export async function overloadScenarios(target: {
  size: number
  base: string
  editor: string
  adminToken: string
  db: pg.Client
}): Promise<void> {
  const { size, base, editor, adminToken, db } = target
  record('(a) one list, kept', size, await load(base, { url: `${base}${EVENT_LIST}` }))
  record(
    '(h) varied lists',
    size,
    await load(base, { url: base, requests: pathsDrawnBy(variedList) }),
  )
  record(
    "(i) signed-in editor's list",
    size,
    await load(base, { url: `${base}${EVENT_LIST}`, headers: { Authorization: editor } }),
  )
  record(
    '(w) signed-in writes, half new, half updates',
    size,
    ...(await writeMix(base, adminToken, db)),
  )
}

/** The runs' figures as lines of the results file. */
export function overloadNotes(): string[] {
  return figures.map(
    ({
      load,
      size,
      served,
      servedP99,
      refused,
      refusalP50,
      refusalP99,
      other,
      server,
      loopDelay,
      writes,
    }) => {
      const others = Object.entries(other).map(
        ([status, n]) => `${n} × ${status === '0' ? 'transport error' : status}`,
      )
      const stored = writes
        ? `; ${writes.acknowledged} writes acknowledged, ${writes.missing} of them not stored as acknowledged (target 0)`
        : ''
      return (
        `${OVERLOAD.connections} connections for ${OVERLOAD.seconds} s on ${load} at ${size.toLocaleString('en')}: ${served} answers served, p99 ${servedP99} ms (target < 1000); ` +
        `${refused ? `${refused} refused 503, p50 ${refusalP50} ms, p99 ${refusalP99} ms (target < 50)` : 'none refused'}${others.length ? `; other: ${others.join(', ')}` : ''}${stored}; ` +
        `in the server (bucket bounds): served p99 ≤ ${server.servedP99} ms${refused ? `, refusals p50 ≤ ${server.refusalP50} ms, p99 ≤ ${server.refusalP99} ms` : ''}; event-loop delay p99 ${loopDelay.p99} ms, longest ${loopDelay.max} ms`
      )
    },
  )
}
