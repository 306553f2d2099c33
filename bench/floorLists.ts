/**
 * The floor of (h)'s varied lists (bench/rawFloor.ts): the same events, totals and pages past the
 * last as the namespace answers them, made as a careful raw server on the same database would make
 * them. It takes what the database keeps for every writer (the counts per day that its triggers keep,
 * the revision it announces at every commit) and what PostgreSQL's plans showed, and none of the app's
 * code: no validation, no access control, no answer kept.
 */
import pg from 'pg'
import { keptFor, pageJson, pool } from './floorParts'

const PER_PAGE = 10
/** Events a walk along the start index may be expected to read before a page is read from the matches instead (the namespace's figure). */
const WALKED_EVENTS = 5000

/** The content's revision, as the namespace learns it: announced by the database at every commit. */
let revision: Promise<string>
const listener = new pg.Client({ connectionString: process.env.DATABASE_URL })
listener.on('notification', ({ payload }) => (revision = Promise.resolve(payload!)))
revision = listener
  .connect()
  .then(() => listener.query('listen calendar_revision'))
  .then(() => pool.query('select value from calendar_revision where id = 1'))
  .then(({ rows }) => String(rows[0].value))

/** The site's zone, which its days begin and end in: read once, as a raw server would configure it. */
export const zone = pool
  .query(`select coalesce((select timezone from settings limit 1), 'UTC') as zone`)
  .then(({ rows }) => rows[0].zone as string)

/*
 * Every statement's first parameters: $1 and $2 the window's first and last instants, $3 and $4 the
 * local starts 14 hours wider (the widest offset), $5 the category (0: none), $6 the tag (0: none),
 * all computed here (`windowOf`), as the namespace computes them, so that PostgreSQL plans for their
 * values (as expressions of the zone and `now()` it cannot). As the namespace does, the window bounds the events' UTC start
 * and end as the site's days begin and end, and the local start the list is ordered by: a walk along
 * its index starts at the window.
 */
const DAY = 86_400_000
/** Formats by zone: building one costs far more than using it. */
const formats = new Map<string, Intl.DateTimeFormat>()
const wallClock = (zone: string) => {
  let format = formats.get(zone)
  if (!format)
    formats.set(
      zone,
      (format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        ...Object.fromEntries(
          ['month', 'day', 'hour', 'minute', 'second'].map((part) => [part, '2-digit']),
        ),
      })),
    )
  return format
}
/** The instant (ms) at which the clock of `zone` reads midnight of `day` (`YYYY-MM-DD`). */
function midnightIn(zone: string, day: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`)
  const offset = (at: number) => {
    const parts = wallClock(zone).formatToParts(at)
    const part = (type: string) => Number(parts.find((one) => one.type === type)?.value)
    return (
      Date.UTC(
        part('year'),
        part('month') - 1,
        part('day'),
        part('hour'),
        part('minute'),
        part('second'),
      ) - at
    )
  }
  // Twice: the offset at the first guess may be the other side of a change of offset.
  return wall - offset(wall - offset(wall))
}
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const dateTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
/** `day` plus `months`, the day of the month kept or, past the month's end, its last (as luxon adds months). */
function plusMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate()
  return dayOf(Date.UTC(year, month - 1 + months, Math.min(date, last)))
}

type Window = { lower: number; upper: number; values: string[] }
/** Windows by zone, day and dates asked: the same few again and again, as the namespace keeps them. */
const windows = new Map<string, Window>()

/** The window of `start` to `end` (days), or the default one: from yesterday to 24 months on, in the site's zone. */
export function windowOf(zone: string, start: string | null, end: string | null): Window {
  const parts = wallClock(zone).formatToParts(Date.now())
  const part = (type: string) => parts.find((one) => one.type === type)?.value
  const today = `${part('year')}-${part('month')}-${part('day')}`
  const key = JSON.stringify([zone, today, start, end])
  let window = windows.get(key)
  if (!window) {
    const first = start ?? dayOf(Date.parse(today) - DAY)
    const last = end ?? plusMonths(today, 24)
    const lower = midnightIn(zone, first)
    const upper = midnightIn(zone, dayOf(Date.parse(last) + DAY)) - 1
    const widest = 14 * 3_600_000
    const values = [lower, upper].map((ms) => new Date(ms).toISOString())
    window = {
      lower,
      upper,
      values: [...values, dateTime(lower - widest), dateTime(upper + widest)],
    }
    if (windows.size >= 5000) windows.delete(windows.keys().next().value!)
    windows.set(key, window)
  }
  return window
}

/** The category and its subcategories, at any depth: an array first, so that their links are read by their index. */
const CATEGORY_TREE = `array(with recursive t(id) as (select $5::int union select c.id from event_categories c join t on c.parent_id = t.id) select id from t)`
/**
 * A condition on an event's links: `probed`, a test of each event as a walk along the index meets it
 * (`offset 0` keeps PostgreSQL from reading every link of the term first: a tag's 40,000 at 1M, 85 ms
 * of a 96 ms page); `joined`, the links read first, for reading or counting every match.
 */
type LinkTest = 'probed' | 'joined'
const linked = (path: string, link: string, test: LinkTest) =>
  test === 'probed'
    ? `exists (select from events_rels r where r.parent_id = e.id and r.path = '${path}' and ${link} offset 0)`
    : `e.id in (select r.parent_id from events_rels r where r.path = '${path}' and ${link})`
/** The window's conditions on an event `e`, from $1 to $4, its events starting from `from` (the window's start). */
export const inWindow = (from = '$1') =>
  `e.start >= ${from} and e."end" <= $2 and e.start_local >= $3 and e.start_local <= $4`
/** A visitor's list's conditions, its links tested as `test` says: with a custom plan, a filter of 0 leaves no condition. */
const conditions = (test: LinkTest, from?: string) =>
  [
    `e.status = 'publish' and coalesce(e.hide_from_listings, false) = false`,
    inWindow(from),
    `($5 = 0 or ${linked('categories', `r.event_categories_id = any(${CATEGORY_TREE})`, test)})`,
    `($6 = 0 or ${linked('tags', 'r.event_tags_id = $6', test)})`,
  ].join('\n and ')

/** The kept counts of `category` and `tag` for the days from $7 to the day before $8. */
const daysKept = (category: string, tag: string) =>
  `(select coalesce(sum(d.n), 0) from calendar_list_days d where d.category = ${category} and d.tag = ${tag}
     and d.day >= $7::date and d.day < $8::date)`

/**
 * A list's total and its window's size (`span`), as the namespace counts a visitor's list: the
 * window's whole days from the counts kept per day, the events before its first whole day and from
 * the day an event may end after the window counted one by one ($7: the first whole UTC day, $8 the
 * day from which an event may end after the window; those start no later than the window ends, a
 * bound that lets the index find them: without it PostgreSQL read 29,000 events to count 57 at 1M). A category with subcategories is
 * several categories, which the kept counts do not give: its matches are counted. Unnamed, so planned
 * for its values: it runs once per filter and revision.
 */
const TOTAL = `select case when $5 <> 0 and exists (select from event_categories where parent_id = $5)
    then (select count(*) from events e where ${conditions('joined')})
    else ${daysKept('$5', '$6')}
      + (select count(*) from events e where ${conditions('probed')} and e.start < $7::date::timestamp at time zone 'UTC')
      + (select count(*) from events e where ${conditions('probed', `$8::date::timestamp at time zone 'UTC'`)} and e.start <= $2) end::int as total,
  ${daysKept('0', '0')}::int as span`

/**
 * A page's ids walked along the local start's index, each event's links tested ($7: the offset).
 * Unnamed, as the matches below: its generic plan, from a named statement's sixth run, read a
 * category's page in 125–200 ms against 8–20 planned for its values.
 */
const WALKED_IDS = `select array(select e.id from events e where ${conditions('probed')}
   order by e.start_local, e.id limit ${PER_PAGE} offset $7) as ids`

/**
 * A list's matches in order, read once (materialized): where they are few and far between along the
 * index, walking to a page read most of the window (138 ms against 39 for a category and a tag at
 * 100k). Unnamed: its generic plan probed every event of the window (132 ms against 37 for a
 * category at 100k).
 */
const MATCHES = `with m as materialized (select e.id, e.start_local from events e where ${conditions('joined')})
select array(select id from m order by start_local, id) as ids`

const BODY_BY_IDS = {
  name: 'floor-body',
  text: `with page as (select e.* from events e where e.id = any($1::int[]))
${pageJson('$2')}`,
}

/** How long the longest event lasts, in ms, once per revision: what the kept days' tail must count one by one. */
const longestEvent = (at: string) =>
  keptFor(at, 'longest', () =>
    pool
      .query(
        `select coalesce(extract(epoch from max("end" - start)) * 1000, 0)::float8 as ms from events`,
      )
      .then(({ rows }) => Number(rows[0].ms)),
  )

type Count = { total: number; span: number }

/** A varied list, (h): the page asked, or the namespace's 404 for a page past the last. */
export async function variedList(url: URL, root: string | undefined): Promise<[number, unknown]> {
  const query = url.searchParams
  const [category, tag] = ['categories', 'tags'].map((name) => Number(query.get(name) ?? 0))
  const page = Math.max(1, Number(query.get('page') ?? 1))
  const language = root ?? query.get('i18n_language') ?? 'en'
  const window = windowOf(await zone, query.get('start_date'), query.get('end_date'))
  const filter = [...window.values, category, tag]
  const at = await revision
  const { total, span } = await keptFor<Count>(at, JSON.stringify(['count', filter]), async () => {
    // The kept days end where an event starting on them may end after the window.
    const firstDay = Math.ceil(window.lower / DAY) * DAY
    const tailDay = Math.floor((window.upper - (await longestEvent(at))) / DAY) * DAY
    const days = [firstDay, Math.max(firstDay, tailDay)].map(dayOf)
    const { rows } = await pool.query({ text: TOTAL, values: [...filter, ...days] })
    return rows[0] as Count
  })
  const pages = Math.ceil(total / PER_PAGE)
  if (page > Math.max(1, pages))
    return [404, { code: 'rest_event_archive_page_not_found', data: { status: 404 } }]
  const answer = { total, total_pages: pages }
  if (!total) return [200, { events: [], ...answer }]
  const offset = (page - 1) * PER_PAGE
  const walk = span * page * PER_PAGE <= total * WALKED_EVENTS
  // A page's ids serve every language, as its total does: kept per revision.
  const ids = await keptFor(at, JSON.stringify(['page', filter, page]), async () =>
    walk
      ? ((await pool.query({ text: WALKED_IDS, values: [...filter, offset] })).rows[0]
          .ids as number[])
      : (await matchesOf(at, filter)).slice(offset, offset + PER_PAGE),
  )
  const { rows } = await pool.query({ ...BODY_BY_IDS, values: [ids, language] })
  return [200, { ...rows[0].body, ...answer }]
}

/** A filter's matches in order, once per revision. */
const matchesOf = (at: string, filter: unknown[]) =>
  keptFor(at, JSON.stringify(['matches', filter]), () =>
    pool.query({ text: MATCHES, values: filter }).then(({ rows }) => rows[0].ids as number[]),
  )
