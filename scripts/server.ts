/**
 * The production HTTP server: Next's request handler (the admin, Payload's APIs, the namespace)
 * behind the front door (src/server/frontDoor.ts), which serves anonymous answers the namespace has made
 * at the current revision again without Next, and the load-shedding gate (src/server/loadShedding.ts),
 * which refuses a namespace request an overloaded instance cannot make in time before any routing
 * work; a method no route serves is answered before both (src/server/unservedMethods.ts); the
 * namespace's other requests, its writes included, are handed to it without Next's router
 * (src/server/frontDoor.ts `passToNamespace`), and its writes run their database part in the write
 * lane's turns (src/server/writeLane.ts). Each
 * request is first given its id and counted (src/server/observed.ts), and `/metrics` is answered there. `npm start`, the tests, the
 * benchmarks and the fault run all start the app through it, bundled into the build
 * (scripts/productionServer.ts: `node .next/calendar-server.mjs <port> [host]`).
 */
import http from 'node:http'
import path from 'node:path'
import v8 from 'node:v8'
import next from 'next'
import { forwardingHeaders, trustedProxyHops } from '../src/collections/clientAddress'
import { cacheBudget } from '../src/calendar/caches'
import { dropCrossSiteCookie } from '../src/server/crossSiteCookies'
import { FrontDoor, isRead, passToNamespace } from '../src/server/frontDoor'
import { refusedAdminPage } from '../src/server/adminPages'
import { answerFailure } from '../src/server/handlerFailure'
import { drainJobs } from '../src/server/jobsDrain'
import { loadGate, sheddingSettings } from '../src/server/loadShedding'
import { observed } from '../src/server/observed'
import { numberSetting, readSettingsAtStart, SettingError } from '../src/calendar/settings'
import { Turns } from '../src/server/turns'
import { answerUnreadable } from '../src/server/unreadableRequests'
import { refuseUnservedMethod } from '../src/server/unservedMethods'
import { installWriteLane, writeLane } from '../src/server/writeLane'

// V8 reads it at every collection of the old space, so setting it once the modules are loaded is
// in time (scripts/productionServer.ts).
const growing = Number(process.env.SERVER_HEAP_GROWING_PERCENT)
if (Number.isInteger(growing) && growing > 0)
  v8.setFlagsFromString(`--heap-growing-percent=${growing}`)

const [port = process.env.PORT ?? '3000', hostname] = process.argv.slice(2)
const root = path.resolve(import.meta.dirname, '..')

async function main(): Promise<void> {
  // Read first: a wrong setting stops the server before Next starts.
  readSettingsAtStart(process.env)
  const turns = new Turns(numberSetting('ANSWER_CONCURRENCY'))
  const writes = numberSetting('WRITE_CONCURRENCY')
  const shedding = sheddingSettings(process.env)
  const hops = trustedProxyHops()
  const app = next({ dev: false, dir: root, hostname: hostname ?? 'localhost', port: Number(port) })
  await app.prepare()
  const handle = app.getRequestHandler()
  const gate = loadGate({ ...shedding, refusesWrite: () => lane.foreseesRefusal() })
  const lane = writeLane({ size: writes, queueMs: shedding.queueMs, shedding: gate.shedding })
  installWriteLane(lane)
  const front = new FrontDoor(cacheBudget('frontDoor'))
  // The origin Next gives the requests it hands on: its hostname (an IPv6 address in brackets) and port.
  const host = hostname ?? 'localhost'
  const origin = `${host.includes(':') ? `[${host}]` : host}:${port}`
  const serve = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const arrivedAt = Date.now()
    // Before anything reads them: what a client forged is gone, and the front door takes the read
    // rate limit from the address the namespace does; another origin's page sends no sign-in cookie.
    Object.assign(
      request.headers,
      forwardingHeaders(request.headers, request.socket.remoteAddress, hops),
    )
    dropCrossSiteCookie(request.headers, process.env.SERVER_URL)
    if (refuseUnservedMethod(request, response)) return
    // Kept answers are served whatever the load; the gate holds what would be made.
    if (await front.serve(request, response).catch(() => false)) return
    const admission = gate.admit(request, response)
    if (!admission) return
    const handling = async () => {
      const passed = passToNamespace(request, response, { origin, turns, admission })
      if (await passed.catch(() => false)) return
      if (!(await refusedAdminPage(request, response))) await handle(request, response)
    }
    try {
      // A write carries the time it arrived, from which the write lane counts its turn's deadline
      // (reads never take a turn there). Next answers its own failures; one it lets through would
      // otherwise end the process.
      await (isRead(request) ? handling() : lane.arriving(arrivedAt, handling)).catch(
        (error: unknown) => answerFailure(request, response, error),
      )
    } finally {
      admission.ended()
    }
  }
  const server = http.createServer(observed((request, response) => void serve(request, response)))
  server.on('clientError', answerUnreadable)
  server.listen(Number(port), hostname, () =>
    console.log(`▲ Ready on http://${hostname ?? 'localhost'}:${port}`),
  )
  // The runs of the jobs queue in progress end before the process does; the launcher gives the
  // server 10 s to stop before it stops the database.
  const close = () => {
    const closed = new Promise((resolve) => server.close(resolve))
    void Promise.all([closed, drainJobs(8_000)]).then(() => process.exit(0))
  }
  process.once('SIGTERM', close)
  process.once('SIGINT', close)
}

main().catch((error: unknown) => {
  // A wrong setting is one line, naming it; anything else keeps its stack for the operator.
  console.error(error instanceof SettingError ? error.message : error)
  process.exit(1)
})
