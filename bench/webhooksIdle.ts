/**
 * `node --import tsx bench/webhooksIdle.ts [--seconds N]`: the statements an instance sends while
 * nothing is written and its webhook passes wait on a receiver that never answers, with five other
 * endpoints caught up (docs/performance.md, "Caught-up webhooks"). The built server on a fresh
 * embedded cluster with pg_stat_statements loaded; the receivers are HTTP servers of this process.
 * The receiver that never answers fails after 10 s and is retried at the next pass (a retry wait of
 * 1 s, never turned off), so that every pass waits on it. Not part of the tests.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { startEmbeddedDatabase } from '../src/database/embedded'
import { waitForHealth } from '../scripts/serverProcess'
import { adminToken, runMain, startApp, stop } from './app'
import { statements, withStatementCounts } from './writes'

const CAUGHT_UP = 5
const at = process.argv.indexOf('--seconds')
const seconds = at >= 0 ? Number(process.argv[at + 1]) : 60

/** A receiver on loopback: `answer` false takes each POST and never answers it. */
async function receiver(answer: boolean) {
  const posts: number[] = []
  const server = http.createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      posts.push(Date.now())
      if (answer) response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, posts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-webhooks-'))
  // As root the embedded server runs as `postgres`, which must enter the folder.
  await chmod(work, 0o755)
  const directory = path.join(work, 'postgres')
  const fresh = await startEmbeddedDatabase({ directory, fresh: true, unsafeFast: true })
  const database = await withStatementCounts(fresh, directory)
  const { app, base } = await startApp(database, {
    settings: {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      WEBHOOK_MAX_FAILURES: '100000',
    },
  })
  const receivers = [
    ...(await Promise.all(Array.from({ length: CAUGHT_UP }, () => receiver(true)))),
    await receiver(false),
  ]
  const db = new pg.Client({ connectionString: database.url })
  try {
    await waitForHealth(base, 180_000)
    await db.connect()
    const token = await adminToken(base)
    const send = async (url: string, json: unknown) => {
      const reply = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(json),
      })
      if (!reply.ok) throw new Error(`${url}: ${reply.status} ${await reply.text()}`)
    }
    for (const { url } of receivers)
      await send('/api/webhooks', { url, secret: 'bench-secret-0123456789', types: ['venue'] })
    await send('/api/cal/events/v1/venues', { venue: 'Bench hall', status: 'publish' })
    // Settled: every endpoint has its change, and the pass waits on the one that never answers.
    const deadline = Date.now() + 60_000
    while (receivers.some(({ posts }) => posts.length === 0)) {
      if (Date.now() > deadline) throw new Error('the change did not reach every receiver')
      await sleep(200)
    }
    await db.query('select pg_stat_statements_reset()')
    const before = await statements(db)
    const hung = receivers.at(-1)!.posts.length
    await sleep(seconds * 1000)
    const sent = (await statements(db)) - before
    const { rows } = await db.query<{ calls: string; query: string }>(
      `select calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) as query from pg_stat_statements
        where query not like '%pg_stat_statements%' order by calls desc limit 12`,
    )
    console.log(
      `${CAUGHT_UP} caught-up endpoints, ${receivers.at(-1)!.posts.length - hung} waits of 10 s on the one that never answers in ${seconds} s: ${sent} statements, ${(sent / seconds).toFixed(1)} a second`,
    )
    for (const row of rows) console.log(`${row.calls.padStart(6)}  ${row.query}`)
  } finally {
    await db.end().catch(() => undefined)
    await stop(app)
    for (const { server } of receivers) {
      server.closeAllConnections()
      server.close()
    }
    await database.stop()
    await rm(work, { recursive: true, force: true })
  }
}

runMain(main)
