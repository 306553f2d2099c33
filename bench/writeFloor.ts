/**
 * The write floor: a minimal node:http server writing the rows an event's create and update through
 * the namespace write (the event, its English texts, its relations and cost, and Payload's version
 * of it), each write one prepared statement, so one transaction and one round trip, the most a careful
 * raw server could save. The database's own triggers (revision, change log, term and day counts) run
 * as they do for the namespace. It does no validation, no access control, no slug check and no zone
 * lookup: the cost of the rows alone.
 *
 * `POST /events` creates (the namespace's body: title, description, start_date, end_date, timezone,
 * venue, organizer, categories, tags, cost, status); `POST /events/{id}` retitles (`{ title }`). Any
 * other request is answered 200, empty.
 */
import { createServer, type IncomingMessage } from 'node:http'
import pg from 'pg'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })

/** The version's columns, from the event's columns of the same name. */
const VERSIONED = `status, start, "end", timezone, start_local, end_local, venue_id, published_at, _status, updated_at, created_at`
const VERSION_COLUMNS = VERSIONED.split(', ')
  .map((column) => (column === '"end"' ? 'version_end' : `version_${column}`))
  .join(', ')
/** The version's statuses are enums of their own: the event's are cast through their text. */
const VERSION_VALUES = VERSIONED.split(', ')
  .map((column) =>
    column === 'status'
      ? 'e.status::text::enum__events_v_version_status'
      : column === '_status'
        ? 'e._status::text::enum__events_v_version_autosave'
        : `e.${column}`,
  )
  .join(', ')

/** The version of the event `e`, with its texts, relations and cost, as Payload's drafts keep it. */
const versionOf = (locales: string, rels: string, texts: string) => `
  v as (insert into _events_v (parent_id, ${VERSION_COLUMNS}, latest, created_at, updated_at)
        select e.id, ${VERSION_VALUES}, true, now(), now() from e returning id),
  vl as (insert into _events_v_locales (version_title, version_description_html, version_slug, _locale, _parent_id)
         select l.title, l.description_html, l.slug, l._locale, v.id from ${locales} l, v),
  vr as (insert into _events_v_rels ("order", parent_id, path, organizers_id, event_categories_id, event_tags_id)
         select r."order", v.id, r.path, r.organizers_id, r.event_categories_id, r.event_tags_id from ${rels} r, v),
  vt as (insert into _events_v_texts ("order", parent_id, path, text) select t."order", v.id, t.path, t.text from ${texts} t, v)`

const CREATE_SQL = `
with e as (
  insert into events (status, _status, published_at, start, "end", timezone, start_local, end_local, venue_id)
  values ($1, 'published', now(), $2::timestamp at time zone $4, $3::timestamp at time zone $4, $4, $2, $3, $5)
  returning *),
l as (insert into events_locales (title, description_html, slug, _locale, _parent_id)
      select $6, $7, $8, 'en', e.id from e returning *),
r as (insert into events_rels ("order", parent_id, path, organizers_id, event_categories_id, event_tags_id)
      select link.n, e.id, link.path, link.organizer, link.category, link.tag
        from e, unnest($9::int[], $10::text[], $11::int[], $12::int[], $13::int[]) as link(n, path, organizer, category, tag)
      returning *),
t as (insert into events_texts ("order", parent_id, path, text) select 1, e.id, 'cost', $14 from e returning *),
${versionOf('l', 'r', 't')}
select id from e`

const UPDATE_SQL = `
with e as (update events set updated_at = now() where id = $1 returning *),
l as (update events_locales set title = $2 where _parent_id = $1 and _locale = 'en' returning *),
previous as (update _events_v set latest = false where parent_id = $1 and latest),
${versionOf('l', '(select * from events_rels where parent_id = $1)', '(select * from events_texts where parent_id = $1)')}
select id from e`

type EventBody = {
  title: string
  description?: string
  start_date: string
  end_date: string
  timezone?: string
  status?: string
  venue?: number
  organizer?: number[]
  categories?: number[]
  tags?: number[]
  cost?: string
}

/** The relations' rows as the columns `unnest` takes: order, path and one id column per kind. */
function links(body: EventBody): unknown[][] {
  const columns: unknown[][] = [[], [], [], [], []]
  const kinds = [
    ['organizers', body.organizer ?? [], 2],
    ['categories', body.categories ?? [], 3],
    ['tags', body.tags ?? [], 4],
  ] as const
  for (const [path, ids, column] of kinds)
    ids.forEach((id, index) => {
      columns[0]!.push(index + 1)
      columns[1]!.push(path)
      for (const other of [2, 3, 4]) columns[other]!.push(other === column ? id : null)
    })
  return columns
}

const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

async function bodyOf(request: IncomingMessage): Promise<EventBody> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as EventBody
}

createServer(async (request, response) => {
  // Anything else is the benchmark asking whether the floor is up.
  if (request.method !== 'POST') return response.end()
  try {
    const body = await bodyOf(request)
    const id = /^\/events\/(\d+)$/.exec(request.url ?? '')?.[1]
    const { rows } = id
      ? await pool.query({
          name: 'floor-update',
          text: UPDATE_SQL,
          values: [Number(id), body.title],
        })
      : await pool.query({
          name: 'floor-create',
          text: CREATE_SQL,
          values: [
            body.status ?? 'publish',
            body.start_date,
            body.end_date,
            body.timezone ?? 'UTC',
            body.venue ?? null,
            body.title,
            body.description ?? '',
            slugOf(body.title),
            ...links(body),
            body.cost ?? null,
          ],
        })
    response.writeHead(id ? 200 : 201, { 'Content-Type': 'application/json; charset=UTF-8' })
    response.end(JSON.stringify({ id: rows[0]?.id }))
  } catch (error) {
    response.writeHead(500)
    response.end(String(error))
  }
}).listen(Number(process.env.PORT), '127.0.0.1')
