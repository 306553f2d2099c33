/**
 * `npm run bench:pages [-- --events N]`: time to first byte of the public pages (docs/public-face.md
 * "Public pages") at N events (10,000 by default), against the built server on a fresh embedded
 * PostgreSQL with the benchmark's data set (bench/dataset.ts). Cold: the first visit of a URL at the
 * current content revision (the namespace makes its answers); kept: the same URL again (the
 * namespace's answers come from its per-revision cache). Not part of the tests.
 */
import http from 'node:http'
import { waitForHealth } from '../scripts/serverProcess'
import { startApp, stop, temporaryDatabase } from './app'
import { generateDataset } from './dataset'

const at = process.argv.indexOf('--events')
const events = at >= 0 ? Number(process.argv[at + 1]) : 10_000
if (!Number.isInteger(events) || events < 1) throw new Error('usage: bench/pages.ts [--events N]')
const SAMPLES = 15

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/** Milliseconds from sending a GET to its first byte; the body is read to the end before the next. */
function firstByte(url: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    http
      .get(url, { agent }, (response) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6
        response.resume()
        response.on('end', () => resolve({ ms, status: response.statusCode ?? 0 }))
      })
      .on('error', reject)
  })
}

async function timed(urls: string[]): Promise<number> {
  const times: number[] = []
  for (const url of urls) {
    const { ms, status } = await firstByte(url)
    if (status !== 200) throw new Error(`${url} answered ${status}`)
    times.push(ms)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

const pad = (n: number) => String(n).padStart(2, '0')

const { database, remove } = await temporaryDatabase('bench-pages-')
const { app, base } = await startApp(database, { ownUrl: true })
try {
  await waitForHealth(base, 180_000)
  await generateDataset(database.url, events)
  const ids = Array.from(
    { length: SAMPLES },
    (_, i) => 1 + Math.floor(((i + 1) * events) / (SAMPLES + 2)),
  )
  const now = new Date()
  const months = Array.from({ length: SAMPLES }, (_, i) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 6 + i, 1))
    return `${month.getUTCFullYear()}-${pad(month.getUTCMonth() + 1)}`
  })
  // One visit first, so that the server's own start-up (code loaded, pools filled) is not counted as a page's.
  await firstByte(`${base}/events/?view=list&page=3`)
  const rows = [
    ['event page /event/{slug}/', ids.map((id) => `${base}/event/event-${id}/`)],
    ['/events/ month view', months.map((month) => `${base}/events/?month=${month}`)],
    [
      '/events/?view=list',
      Array.from({ length: SAMPLES }, (_, i) => `${base}/events/?view=list&page=${i + 1}`),
    ],
  ] as const
  console.log(
    `| ${events.toLocaleString('en')} events | cold p50 ms | kept p50 ms |\n|---|---:|---:|`,
  )
  for (const [name, urls] of rows) {
    const cold = await timed([...urls])
    const kept = await timed(Array.from({ length: SAMPLES }, () => urls[0]!))
    console.log(`| ${name} | ${cold.toFixed(1)} | ${kept.toFixed(1)} |`)
  }
} finally {
  agent.destroy()
  await stop(app)
  await remove()
}
