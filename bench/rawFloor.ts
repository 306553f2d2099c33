/**
 * The floor: a minimal node:http server answering scenario (a), the default event list page, with
 * one hand-written SQL query that builds the page and its relations as JSON in PostgreSQL. It does
 * no validation, no access control, no localization fallback: the cost of the data alone. Its total
 * is counted once per content revision, as the namespace counts it: the page's query reads the
 * revision too, and a count runs when it has moved. Both statements are prepared (named, so each of
 * the pool's connections plans them once), as a careful raw server's would be: unnamed, PostgreSQL
 * planned the page's query on every request, and planning took longer than running it.
 */
import { createServer } from 'node:http'
import pg from 'pg'

// The app turns parallel plans off for its database (src/migrations/calendarSchema/serialPlans.ts); the floor keeps
// the server's own setting, whichever serves its one query best, as a raw server's would.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  options: '-c max_parallel_workers_per_gather=2',
})
const PAGE_SQL = `
with page as (
  select e.* from events e
   where e.status = 'publish' and coalesce(e.hide_from_listings, false) = false
     and e.start_local >= $1 and e.end_local <= $2
   order by e.start_local, e.id limit 10)
select json_build_object(
  'events', coalesce((select json_agg(json_build_object(
      'id', p.id, 'status', p.status, 'title', l.title, 'description', coalesce(l.description_html, ''), 'slug', l.slug,
      'start_date', p.start_local, 'end_date', p.end_local, 'utc_start_date', to_char(p.start at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
      'utc_end_date', to_char(p."end" at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'), 'featured', p.featured,
      'venue', (select json_build_object('id', v.id, 'venue', vl.name, 'address', v.address, 'city', v.city, 'country', v.country, 'zip', v.zip)
                  from venues v join venues_locales vl on vl._parent_id = v.id and vl._locale = 'en' where v.id = p.venue_id),
      'organizer', (select coalesce(json_agg(json_build_object('id', o.id, 'organizer', ol.name, 'email', o.email, 'phone', o.phone) order by r."order"), '[]')
                      from events_rels r join organizers o on o.id = r.organizers_id join organizers_locales ol on ol._parent_id = o.id and ol._locale = 'en'
                     where r.parent_id = p.id and r.path = 'organizers'),
      'categories', (select coalesce(json_agg(json_build_object('id', c.id, 'name', cl.name, 'slug', cl.slug)), '[]')
                       from events_rels r join event_categories c on c.id = r.event_categories_id join event_categories_locales cl on cl._parent_id = c.id and cl._locale = 'en'
                      where r.parent_id = p.id and r.path = 'categories'),
      'tags', (select coalesce(json_agg(json_build_object('id', t.id, 'name', tl.name, 'slug', tl.slug)), '[]')
                 from events_rels r join event_tags t on t.id = r.event_tags_id join event_tags_locales tl on tl._parent_id = t.id and tl._locale = 'en'
                where r.parent_id = p.id and r.path = 'tags')
    ) order by p.start_local, p.id) from page p join events_locales l on l._parent_id = p.id and l._locale = 'en'), '[]')
  ) as body, (select value from calendar_revision where id = 1) as revision`
const TOTAL_SQL = `
select count(*)::int as total from events e
 where e.status = 'publish' and coalesce(e.hide_from_listings, false) = false and e.start_local >= $1 and e.end_local <= $2`

/** The window's total, for one revision and window: the first request at a new one counts it. */
let counted: { key: string; total: Promise<number> } | undefined

function totalOf(revision: string, bounds: string[]): Promise<number> {
  const key = JSON.stringify([revision, bounds])
  if (counted?.key !== key) {
    const total = pool
      .query({ name: 'floor-total', text: TOTAL_SQL, values: bounds })
      .then(({ rows }) => rows[0].total as number)
    counted = { key, total }
    // A failed count is not a total: the next request counts again.
    total.catch(() => counted?.total === total && (counted = undefined))
  }
  return counted.total
}

function windowBounds(now = new Date()) {
  const day = (offset: number, months = 0) => {
    const d = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, now.getUTCDate() + offset),
    )
    return d.toISOString().slice(0, 10)
  }
  return [`${day(-1)} 00:00:00`, `${day(0, 24)} 23:59:59`]
}

createServer(async (_request, response) => {
  try {
    const bounds = windowBounds()
    const { rows } = await pool.query({ name: 'floor-page', text: PAGE_SQL, values: bounds })
    const body = JSON.stringify({
      ...rows[0].body,
      total: await totalOf(String(rows[0].revision), bounds),
    })
    response.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' })
    response.end(body)
  } catch (error) {
    response.writeHead(500)
    response.end(String(error))
  }
}).listen(Number(process.env.PORT), '127.0.0.1')
