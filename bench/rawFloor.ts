/**
 * The floors of the reads: a minimal node:http server answering with hand-written SQL that builds
 * each page and its relations as JSON in PostgreSQL. It does no validation and no access control but
 * (i)'s sign-in, and keeps no answer: the cost of the data alone. A statement run on every request is prepared (named,
 * so each of the pool's connections plans it once), as a careful raw server's would be: unnamed,
 * PostgreSQL planned (f)'s page query on every request, and planning took longer than running it.
 *
 * - `/`: scenario (a)'s answer, the default event list page, (f). Its total is counted once per
 *   content revision, as the namespace counts it: the page's query reads the revision too, and a
 *   count runs when it has moved. Its window compares the local wall clocks, as it did from the
 *   start, so that its figures compare with every run before (on the bench's site, in UTC, the same
 *   events as the namespace's window).
 * - The namespace's event list path, with or without a language root: (h)'s varied lists, the same
 *   events, totals and pages past the last (404) as the namespace answers them (bench/run.ts checks
 *   that before it measures), the texts in the language asked with English for what it lacks
 *   (bench/floorLists.ts).
 * - Any request with an `Authorization` header: (i)'s answer, the default list as the namespace gives
 *   the bench's editor (bench/floorEditor.ts).
 */
import { createServer } from 'node:http'
import { editorsList } from './floorEditor'
import { variedListAnswer } from './floorLists'
import { pageJson, pool, PUBLISHED_LISTED, totalOf } from './floorParts'
import { dayOffset } from './varied'

const PAGE_SQL = `
with page as (
  select e.* from events e
   where ${PUBLISHED_LISTED}
     and e.start_local >= $1 and e.end_local <= $2
   order by e.start_local, e.id limit 10)
${pageJson()}`
const TOTAL_SQL = `
select count(*)::int as total from events e
 where ${PUBLISHED_LISTED} and e.start_local >= $1 and e.end_local <= $2`

/** (f)'s window, in UTC days: from yesterday to 24 months on. */
const windowBounds = () => [`${dayOffset(-1)} 00:00:00`, `${dayOffset(0, 24)} 23:59:59`]

/** The default list, (f). */
async function defaultList(): Promise<[number, unknown]> {
  const bounds = windowBounds()
  const { rows } = await pool.query({ name: 'floor-page', text: PAGE_SQL, values: bounds })
  const count = { name: 'floor-total', text: TOTAL_SQL, values: bounds }
  return [200, { ...rows[0].body, total: await totalOf(String(rows[0].revision), count) }]
}

const LIST_PATH = /^\/(?:([a-z]{2}(?:-[a-z]{2,4})?)\/)?api\/cal\/events\/v1\/events$/

createServer(async (request, response) => {
  try {
    const url = new URL(request.url ?? '/', 'http://floor')
    const list = LIST_PATH.exec(url.pathname)
    const [status, answer] = request.headers.authorization
      ? await editorsList(request.headers.authorization)
      : list
        ? await variedListAnswer(url, list[1])
        : await defaultList()
    response.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' })
    response.end(JSON.stringify(answer))
  } catch (error) {
    response.writeHead(500)
    response.end(String(error))
  }
}).listen(Number(process.env.PORT), '127.0.0.1')
