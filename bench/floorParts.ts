/** What the floors of the reads share (bench/rawFloor.ts): their pools, the page's JSON, values kept per revision. */
import pg from 'pg'
import { BoundedMap } from '../src/calendar/boundedMap'

// The app turns parallel plans off for its database (src/migrations/calendarSchema/serialPlans.ts).
// (f) keeps PostgreSQL's default, which served its one statement best, as it did from the start;
// the lists' floors keep the database's own, which serves walks along an index that end early:
// with parallel workers (2) (h)'s floor made 715 lists a second at 100k, without them 1,298.
export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  options: '-c max_parallel_workers_per_gather=2',
})
export const listPool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
/** Each localized text in the language `language` (an SQL expression), English where it has none; English alone when it is not given. */
const texts = (language?: string) => ({
  join: (table: string, alias: string, parent: string) =>
    `join ${table} ${alias} on ${alias}._parent_id = ${parent} and ${alias}._locale = 'en'` +
    (language
      ? ` left join ${table} ${alias}_t on ${alias}_t._parent_id = ${parent} and ${alias}_t._locale = ${language}`
      : ''),
  field: (alias: string, name: string) =>
    language ? `coalesce(${alias}_t.${name}, ${alias}.${name})` : `${alias}.${name}`,
})

/**
 * The page of events that `page` holds (a CTE of the statement) as JSON, with their relations, and
 * the content's revision unless `revision` is false. A password-protected event's description,
 * flag, venue, organizers and terms are withheld, as the namespace withholds them from a list
 * (docs/api.md §3.2); organizers come in their stored order and terms by name (their column's ICU
 * collation), as the namespace gives them.
 */
export function pageJson(language?: string, revision = true): string {
  const { join, field } = texts(language)
  const shown = (value: string, withheld: string) =>
    `case when p.has_password then ${withheld} else ${value} end`
  const linked = (item: string, order: string, from: string, path: string) =>
    shown(
      `(select coalesce(json_agg(${item} order by ${order}), '[]') from events_rels r ${from}
         where r.parent_id = p.id and r.path = '${path}')`,
      `'[]'::json`,
    )
  return `select json_build_object(
  'events', coalesce((select json_agg(json_build_object(
      'id', p.id, 'status', p.status, 'title', ${field('l', 'title')}, 'description', ${shown(`coalesce(${field('l', 'description_html')}, '')`, "''")}, 'slug', ${field('l', 'slug')},
      'start_date', p.start_local, 'end_date', p.end_local, 'utc_start_date', to_char(p.start at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
      'utc_end_date', to_char(p."end" at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'), 'featured', ${shown('to_json(p.featured)', "'null'::json")},
      'venue', ${shown(
        `(select json_build_object('id', v.id, 'venue', ${field('vl', 'name')}, 'address', v.address, 'city', v.city, 'country', v.country, 'zip', v.zip)
           from venues v ${join('venues_locales', 'vl', 'v.id')} where v.id = p.venue_id)`,
        `'[]'::json`,
      )},
      'organizer', ${linked(
        `json_build_object('id', o.id, 'organizer', ${field('ol', 'name')}, 'email', o.email, 'phone', o.phone)`,
        'r."order"',
        `join organizers o on o.id = r.organizers_id ${join('organizers_locales', 'ol', 'o.id')}`,
        'organizers',
      )},
      'categories', ${linked(
        `json_build_object('id', c.id, 'name', ${field('cl', 'name')}, 'slug', ${field('cl', 'slug')})`,
        field('cl', 'name'),
        `join event_categories c on c.id = r.event_categories_id ${join('event_categories_locales', 'cl', 'c.id')}`,
        'categories',
      )},
      'tags', ${linked(
        `json_build_object('id', t.id, 'name', ${field('tl', 'name')}, 'slug', ${field('tl', 'slug')})`,
        field('tl', 'name'),
        `join event_tags t on t.id = r.event_tags_id ${join('event_tags_locales', 'tl', 't.id')}`,
        'tags',
      )}
    ) order by p.start_local, p.id) from page p ${language ? 'left ' : ''}${join('events_locales', 'l', 'p.id')}), '[]')
  ) as body${revision ? ', (select value from calendar_revision where id = 1) as revision' : ''}`
}

type Statement = { name?: string; text: string; values: unknown[] }

/** Values kept per revision and key, for the 5,000 used last, as the namespace keeps its per-revision values. */
const kept = new BoundedMap<string, Promise<unknown>>(5000)

/** The value kept for this revision and key, made by `make` the first time; a failure is not kept. */
export function keptFor<T>(revision: string, key: string, make: () => Promise<T>): Promise<T> {
  const slot = JSON.stringify([revision, key])
  let value = kept.get(slot) as Promise<T> | undefined
  if (!value) {
    const made = (value = make())
    kept.set(slot, made)
    made.catch(() => kept.deleteIf(slot, made))
  }
  return value
}

/** A count's total, once per revision and values: as the namespace's totals, counted when the revision has moved. */
export const totalOf = (revision: string, count: Statement, via = pool): Promise<number> =>
  keptFor(revision, JSON.stringify([count.text, count.values]), () =>
    via.query(count).then(({ rows }) => rows[0].total as number),
  )

/** Events a page holds, as the namespace's default `per_page`. */
export const PER_PAGE = 10

/** Events not hidden from listings, which every list leaves out. */
export const LISTED = `coalesce(e.hide_from_listings, false) = false`
/** What a visitor's list shows: published events not hidden from listings. */
export const PUBLISHED_LISTED = `e.status = 'publish' and ${LISTED}`
