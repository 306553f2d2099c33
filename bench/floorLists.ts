/**
 * The floor of (h)'s varied lists (bench/rawFloor.ts): the same events, totals and pages past the
 * last as the namespace answers them, made as a careful raw server on the same database would make
 * them, with the namespace's plan (src/database/events/eventMatch.ts, `listIds`): a filter's first
 * page and its total in one statement, later pages by their own, the body by the page's ids. It takes
 * what the database keeps for every writer (the counts per day that its triggers keep, the revision it
 * announces at every commit) and what PostgreSQL's plans showed, and none of the app's code. It keeps
 * what the namespace keeps per revision, totals and pages' ids, but no answer: the namespace also
 * answers a URL asked again from the answer it kept, which is the app's own advantage here.
 */
import pg from 'pg'
import { keptFor, listPool, pageJson, PER_PAGE, PUBLISHED_LISTED } from './floorParts'
import { DAY, dayOf, inWindow, windowOf, zone } from './floorWindow'

/** Events a walk along the start index may be expected to read before a page is read from the matches instead (the namespace's figure). */
const WALKED_EVENTS = 5000
/** Where the window's size is not known (a category with subcategories), at most this many matches are read rather than walked to (the namespace's figure). */
const FEW_MATCHES = 500

/** The content's revision, as the namespace learns it: announced by the database at every commit. */
let revision: Promise<string>
const listener = new pg.Client({ connectionString: process.env.DATABASE_URL })
listener.on('notification', ({ payload }) => (revision = Promise.resolve(payload!)))
// Without its listener the floor could serve what it keeps past a write: it stops instead.
const lost = (why: unknown) => {
  console.error('The floor lost its revision listener:', why)
  process.exit(1)
}
listener.on('error', lost)
listener.on('end', () => lost('connection ended'))
revision = listener
  .connect()
  .then(() => listener.query('listen calendar_revision'))
  .then(() => listPool.query('select value from calendar_revision where id = 1'))
  .then(({ rows }) => String(rows[0].value))

/*
 * Every statement's parameters: $1 to $4 the window (bench/floorWindow.ts), $5 the category (0:
 * none), $6 the tag (0: none), $7 the page's offset; then, for a first page, $8 the window's first
 * whole UTC day, $9 the day from which an event may end after the window, $10 the events up to the
 * page's end. All are planned for their values (unnamed statements): from a named statement's sixth
 * run PostgreSQL may keep a generic plan, which read a category's walked page in 125–200 ms against
 * 8–20, and probed every event of the window for its matches (132 ms against 37) at 100k.
 */

/** The category and its subcategories, at any depth: an array first, so that their links are read by their index (as a subquery, every category's links were read: 51–63 ms against 34 at 100k). */
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
/** A visitor's list's conditions, its links tested as `test` says: planned for its values, a filter of 0 leaves no condition. */
const conditions = (test: LinkTest, from?: string) =>
  [
    PUBLISHED_LISTED,
    inWindow(from),
    `($5 = 0 or ${linked('categories', `r.event_categories_id = any(${CATEGORY_TREE})`, test)})`,
    `($6 = 0 or ${linked('tags', 'r.event_tags_id = $6', test)})`,
  ].join('\n and ')

/** A page's ids walked along the local start's index, each event's links tested. */
const WALKED = `array(select e.id from events e where ${conditions('probed')}
   order by e.start_local, e.id limit ${PER_PAGE} offset $7)`
/**
 * A page's ids from the matches read first (`offset 0` keeps PostgreSQL from walking again): where
 * they are few and far between along the index, a walk read most of the window (138 ms against 39
 * for a category and a tag at 100k).
 */
const MATCHED = `array(select id from (select e.id, e.start_local from events e where ${conditions('joined')} offset 0) m
   order by start_local, id limit ${PER_PAGE} offset $7)`

/** The kept counts of `category` and `tag` for the days from $8 to the day before $9. */
const daysKept = (category: string, tag: string) =>
  `(select coalesce(sum(d.n), 0) from calendar_list_days d where d.category = ${category} and d.tag = ${tag}
     and d.day >= $8::date and d.day < $9::date)`

/**
 * A filter's first page, with its total and its window's size (`span`), as the namespace counts a
 * visitor's list: the window's whole days from the counts kept per day, the events before its first
 * whole day (`head`: none where the window starts at midnight UTC) and from the day an event may end
 * after the window counted one by one. Those start no later than the window ends, a bound that lets
 * the index find them: without it PostgreSQL read 29,000 events to count 57 (28 ms) at 1M. A category
 * with subcategories is several categories, which the kept counts do not give: its matches are
 * counted, and the window's size is not known (a path the bench's flat categories never take: the
 * namespace reads those matches once for both, which this does not). Walked or read from the matches
 * as the namespace decides, from the total and the size; a page past the total reads nothing.
 */
const firstPage = (
  head: boolean,
) => `with t as (select $5 <> 0 and exists (select from event_categories where parent_id = $5) as tree),
n as materialized (select
  case when t.tree then (select count(*) from events e where ${conditions('joined')})
    else ${daysKept('$5', '$6')}
      ${head ? `+ (select count(*) from events e where ${conditions('probed')} and e.start < $8::date::timestamp at time zone 'UTC')` : ''}
      + (select count(*) from events e where ${conditions('probed', `$9::date::timestamp at time zone 'UTC'`)} and e.start <= $2) end::int as total,
  case when t.tree then null else ${daysKept('0', '0')}::int end as span from t)
select n.total, n.span, case when n.total <= $7 then '{}'::int[]
    when (case when n.span is null then n.total > ${FEW_MATCHES}
      else n.span::bigint * $10 <= n.total::bigint * ${WALKED_EVENTS} end) then ${WALKED} else ${MATCHED} end as ids from n`

/** The body of a page by its ids: named, since one plan serves any ids (each row is found by its key); English alone needs no second join. */
const body = (language: string) =>
  language === 'en'
    ? { name: 'floor-body-en', text: `${pageWithIds}\n${pageJson(undefined, false)}` }
    : { name: 'floor-body', text: `${pageWithIds}\n${pageJson('$2', false)}` }
const pageWithIds = `with page as (select e.* from events e where e.id = any($1::int[]))`

/** How long the longest event lasts, in ms, once per revision: what the kept days' tail must count one by one. */
const longestEvent = (at: string) =>
  keptFor(at, 'longest', () =>
    listPool
      .query(`select extract(epoch from max("end" - start)) * 1000 as ms from events`)
      .then(({ rows }) => Math.max(0, Number(rows[0].ms ?? 0))),
  )

type Count = { total: number; span: number | null }

/** A varied list's answer, (h): the page asked, or the namespace's 404 for a page past the last. */
export async function variedListAnswer(
  url: URL,
  root: string | undefined,
): Promise<[number, unknown]> {
  const query = url.searchParams
  const [category, tag] = ['categories', 'tags'].map((name) => Number(query.get(name) ?? 0))
  const page = Math.max(1, Number(query.get('page') ?? 1))
  const language = root ?? query.get('i18n_language') ?? 'en'
  const window = windowOf(await zone, query.get('start_date'), query.get('end_date'))
  const filter = [...window.values, category, tag]
  const offset = (page - 1) * PER_PAGE
  const at = await revision
  const countKey = JSON.stringify(['count', filter])
  const pageKey = JSON.stringify(['page', filter, page])
  const first: { ids?: number[] } = {}
  const { total, span } = await keptFor<Count>(at, countKey, async () => {
    // The kept days end where an event starting on them may end after the window.
    const firstDay = Math.ceil(window.lower / DAY) * DAY
    const tailDay = Math.floor((window.upper - (await longestEvent(at))) / DAY) * DAY
    const days = [firstDay, Math.max(firstDay, tailDay)].map(dayOf)
    const { rows } = await listPool.query({
      text: firstPage(firstDay > window.lower),
      values: [...filter, offset, ...days, page * PER_PAGE],
    })
    first.ids = rows[0].ids
    return { total: rows[0].total, span: rows[0].span }
  })
  const pages = Math.ceil(total / PER_PAGE)
  if (page > Math.max(1, pages))
    return [404, { code: 'rest_event_archive_page_not_found', data: { status: 404 } }]
  const answer = { total, total_pages: pages }
  if (!total) return [200, { events: [], ...answer }]
  // A page's ids serve every language, as its total does: kept per revision.
  const ids = await keptFor(at, pageKey, async () => {
    if (first.ids) return first.ids
    const walk =
      span === null ? total > FEW_MATCHES : span * page * PER_PAGE <= total * WALKED_EVENTS
    const statement = `select ${walk ? WALKED : MATCHED} as ids`
    const { rows } = await listPool.query({ text: statement, values: [...filter, offset] })
    return rows[0].ids as number[]
  })
  const { rows } = await listPool.query({
    ...body(language),
    values: language === 'en' ? [ids] : [ids, language],
  })
  return [200, { ...rows[0].body, ...answer }]
}
