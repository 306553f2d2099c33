/**
 * `npm run bench:widget [-- --events N] [-- --runs R]` (needs a build: `npm run build`): the
 * `<cal-events>` widget's two budgets (docs/public-face.md). Its size, raw and gzipped, as the app
 * serves it; and, in Debian's Chromium, the time from the script's arrival (the end of its download)
 * to the first paint of the month view holding this month's events, on a page of another origin,
 * against the built server on a fresh embedded cluster holding the benchmark's data set (N events,
 * 10,000 by default, over three years around today: about 280 in a month). Each run is a new browser
 * context, so nothing is cached. Not part of the tests.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { launchChromium } from '../scripts/chromium'
import { waitForHealth } from '../scripts/serverProcess'
import { startApp, stop, temporaryDatabase } from './app'
import { generateDataset } from './dataset'

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`)
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback
  if (!Number.isInteger(value) || value < 1)
    throw new Error('usage: bench/widget.ts [--events N] [--runs R]')
  return value
}

const events = option('events', 10_000)
const runs = option('runs', 10)
const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** Milliseconds from the script's download end to the frame after the month view's first render. */
async function firstPaint(
  page: import('playwright-core').Page,
  url: string,
): Promise<{ milliseconds: number; shown: number }> {
  await page.addInitScript(() => {
    addEventListener('cal-events:render', (event) => {
      const shown = (event as CustomEvent<{ events: number }>).detail.events
      requestAnimationFrame(() =>
        setTimeout(() =>
          Object.assign(window, { widgetPainted: { at: performance.now(), shown } }),
        ),
      )
    })
  })
  await page.goto(url)
  await page.waitForFunction(() => 'widgetPainted' in window, undefined, { timeout: 30_000 })
  return page.evaluate(() => {
    const script = performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.endsWith('/calendar/widget.js')) as PerformanceResourceTiming
    const painted = (window as unknown as { widgetPainted: { at: number; shown: number } })
      .widgetPainted
    return { milliseconds: painted.at - script.responseEnd, shown: painted.shown }
  })
}

const { database, remove } = await temporaryDatabase('bench-widget-')
const { app, base } = await startApp(database, { ownUrl: true })
const site = createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget</title></head><body>` +
      `<script src="${base}/calendar/widget.js"></script><cal-events root="${base}/api/cal/events/v1" view="month"></cal-events></body></html>`,
  )
})
try {
  await waitForHealth(base, 180_000)
  await generateDataset(database.url, events)
  const script = Buffer.from(await (await fetch(`${base}/calendar/widget.js`)).arrayBuffer())
  console.log(
    `size: ${kilobytes(script.length)} raw, ${kilobytes(gzipSync(script, { level: 9 }).length)} gzipped (budget 25 KB)`,
  )
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
  const browser = await launchChromium()
  try {
    // One run first to warm the server (its answer cache is per revision, as in production).
    const timings: number[] = []
    let shown = 0
    for (let run = 0; run <= runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const result = await firstPaint(await context.newPage(), siteUrl)
      await context.close()
      if (run === 0) continue
      timings.push(result.milliseconds)
      shown = result.shown
    }
    timings.sort((a, b) => a - b)
    const median = timings[Math.floor(timings.length / 2)]!
    console.log(
      `first paint of the month view (${shown} events, ${events} in the calendar), ${runs} runs: median ${median.toFixed(0)} ms, ` +
        `min ${timings[0]!.toFixed(0)} ms, max ${timings.at(-1)!.toFixed(0)} ms (budget 1000 ms)`,
    )
  } finally {
    await browser.close()
  }
} finally {
  site.close()
  await stop(app)
  await remove()
}
