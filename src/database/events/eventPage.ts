import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { authoredContentAccess } from '../../calendar/access/collectionAccess'
import { readVisibility, type ReadVisibility } from '../../calendar/access/readVisibility'
import type { Actor } from '../../calendar/access/roles'
import { boundedCache } from '../../calendar/caches'
import { requestStatement, statement, type SQL, type Statement } from '../rawQuery'
import type { ReadScope } from '../readScope'
import { visibilitySql } from './visibility'

/**
 * The body of a page of events in hand-written SQL, for readers whose access rules it can state
 * (`pageAccess`): one prepared statement, which PostgreSQL parses and plans once per connection, for
 * the page's events in the order of `ids` and the venues, organizers, categories and tags they embed,
 * in the shape Payload returns at depth 0 (`Body` names their types; the operations' page reads it).
 *
 * What the caller may see of events, venues and organizers is the calendar's read rule
 * (`ReadVisibility`, which Payload's read access states too), as conditions on the rows; every term. Localized text falls back to English when empty, as
 * Payload's.
 */
export async function pageBody<Body>(
  scope: ReadScope,
  access: PageAccess,
  ids: number[],
): Promise<Body> {
  const rows = await requestStatement<{ body: Body }>(scope.req, bodyStatement(scope.req, access), {
    ids: `{${ids.join(',')}}`,
    language: scope.language,
  })
  return rows[0]!.body
}

/** The body's statement per access rule (`PageAccess.key`), built once: a page gives its ids and language. */
const bodies = boundedCache<string, Statement>('statementBodies')

function bodyStatement(req: PayloadRequest, access: PageAccess): Statement {
  const known = bodies.get(access.key)
  if (known) return known
  const made = statement(
    req.payload,
    bodySql(access, sql`${sql.placeholder('ids')}::int[]`, sql`${sql.placeholder('language')}`),
  )
  bodies.set(access.key, made)
  return made
}

/**
 * The page's events in the order of `ids` (an `int[]`) with what they embed, in `language`: one JSON
 * object, `body`. A statement of its own, or a scalar subquery of the statement that finds the ids
 * (`listIds`), whose `ids` it then names.
 */
export function bodySql(access: PageAccess, ids: SQL, language: SQL): SQL {
  return sql`
    with page as (
      select e.*, p.ord from unnest(${ids}) with ordinality as p(id, ord) join events e on e.id = p.id where ${access.events}),
    rels as (select r.* from events_rels r where r.parent_id in (select id from page)),
    venue_ids as (select distinct venue_id as id from page where venue_id is not null),
    organizer_ids as (select distinct organizers_id as id from rels where path = 'organizers'),
    category_ids as (select distinct event_categories_id as id from rels where path = 'categories'),
    tag_ids as (select distinct event_tags_id as id from rels where path = 'tags')
    select json_build_object(
      'events', coalesce((select json_agg(json_build_object(
          'id', p.id, 'status', p.status, 'author', p.author_id, ${authoredColumns('p')},
          ${linkedText('title')},
          'start', ${iso(sql`p.start`)}, 'end', ${iso(sql`p."end"`)}, 'allDay', p.all_day, 'timezone', p.timezone,
          'cost', (select coalesce(json_agg(t.text order by t."order"), '[]') from events_texts t where t.parent_id = p.id and t.path = 'cost'),
          'currencySymbol', p.currency_symbol, 'currencyCode', p.currency_code, 'currencyPosition', p.currency_position, 'website', p.website,
          'venue', p.venue_id, 'parent', p.parent_id, 'recurrence', p.recurrence, 'recurrenceException', p.recurrence_exception, 'showMap', p.show_map, 'showMapLink', p.show_map_link,
          'hideFromListings', p.hide_from_listings, 'sticky', p.sticky, 'featured', p.featured,
          'organizers', ${relIds('organizers_id', 'organizers')}, 'categories', ${relIds('event_categories_id', 'categories')},
          'tags', ${relIds('event_tags_id', 'tags')}
        ) order by p.ord)
        from page p
        left join events_locales l on l._parent_id = p.id and l._locale = ${language}::_locales
        left join events_locales f on f._parent_id = p.id and f._locale = 'en'), '[]'),
      'venues', coalesce((select json_agg(json_build_object(
          'id', v.id, 'status', v.status, 'author', v.author_id, ${authoredColumns('v')}, ${linkedText('name')},
          'address', v.address, 'city', v.city, 'zip', v.zip, 'state', v.state, 'province', v.province, 'stateprovince', v.stateprovince,
          'country', v.country, 'phone', v.phone, 'website', v.website, 'geoLat', v.geo_lat, 'geoLng', v.geo_lng,
          'showMap', v.show_map, 'showMapLink', v.show_map_link))
        from venues v
        left join venues_locales l on l._parent_id = v.id and l._locale = ${language}::_locales
        left join venues_locales f on f._parent_id = v.id and f._locale = 'en'
        where v.id in (select id from venue_ids) and ${access.venues}), '[]'),
      'organizers', coalesce((select json_agg(json_build_object(
          'id', o.id, 'status', o.status, 'author', o.author_id, ${authoredColumns('o')}, ${linkedText('name')},
          'phone', o.phone, 'website', o.website, 'email', o.email))
        from organizers o
        left join organizers_locales l on l._parent_id = o.id and l._locale = ${language}::_locales
        left join organizers_locales f on f._parent_id = o.id and f._locale = 'en'
        where o.id in (select id from organizer_ids) and ${access.organizers}), '[]'),
      'categories', coalesce((select json_agg(json_build_object(${termColumns('c')}, 'parent', c.parent_id))
        from event_categories c
        left join event_categories_locales l on l._parent_id = c.id and l._locale = ${language}::_locales
        left join event_categories_locales f on f._parent_id = c.id and f._locale = 'en'
        where c.id in (select id from category_ids)), '[]'),
      'tags', coalesce((select json_agg(json_build_object(${termColumns('t')}))
        from event_tags t
        left join event_tags_locales l on l._parent_id = t.id and l._locale = ${language}::_locales
        left join event_tags_locales f on f._parent_id = t.id and f._locale = 'en'
        where t.id in (select id from tag_ids)), '[]')
    ) as body`
}

/**
 * Read access of events (alias `e`), venues (`v`) and organizers (`o`) for this caller, as SQL
 * conditions, and the rule they state (`visibility`); `key` names it (the body's statement is built
 * once per key).
 */
export type PageAccess = {
  visibility: ReadVisibility
  events: SQL
  venues: SQL
  organizers: SQL
  key: string
}

/**
 * The caller's read access to events, venues and organizers as conditions the page query can apply,
 * made from the calendar's read rule; undefined when a developer's rule replaces or narrows it
 * (`collections.<slug>.access` of the plugin's options): the caller then takes Payload's local API,
 * which applies any rule.
 */
export function pageAccess(req: PayloadRequest): PageAccess | undefined {
  const ownRule = (['events', 'venues', 'organizers'] as const).every(
    (slug) => req.payload.collections[slug].config.access.read === authoredContentAccess.read,
  )
  if (!ownRule) return undefined
  const visibility = readVisibility(req.user as Actor)
  return {
    visibility,
    events: visibilitySql(visibility, 'e'),
    venues: visibilitySql(visibility, 'v'),
    organizers: visibilitySql(visibility, 'o'),
    key: JSON.stringify(visibility),
  }
}

/** Timestamps as Payload serializes them: ISO 8601 in UTC with milliseconds. */
function iso(column: SQL) {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

/** Fields every authored record (event, venue, organizer) serves; `l`/`f` are its request-language and English rows. */
function authoredColumns(alias: string) {
  const column = (name: string) => sql.raw(`${alias}.${name}`)
  return sql`'publishedAt', ${iso(column('published_at'))}, 'createdAt', ${iso(column('created_at'))}, 'updatedAt', ${iso(column('updated_at'))},
    'hasPassword', ${column('has_password')}, 'image', ${column('image_id')},
    'descriptionHtml', coalesce(nullif(l.description_html, ''), f.description_html), 'excerpt', coalesce(nullif(l.excerpt, ''), f.excerpt),
    'slug', coalesce(nullif(l.slug, ''), f.slug)`
}

/** A localized text column, in the request's language or else English (Payload's fallback for empty text). */
function linkedText(key: string) {
  return sql.raw(`'${key}', coalesce(nullif(l.${key}, ''), f.${key})`)
}

/** What the embedded term object shows of a category or tag. */
function termColumns(alias: string) {
  return sql.raw(`'id', ${alias}.id, 'name', coalesce(nullif(l.name, ''), f.name), 'description', coalesce(nullif(l.description, ''), f.description),
    'slug', coalesce(nullif(l.slug, ''), f.slug)`)
}

/**
 * The ids of one relationship of the event, in the editor's order, as Payload returns them at depth 0.
 * Read from the table by its parent index, not from the `rels` CTE, which has no index: a scan of the
 * whole CTE per event and path took seconds for a feed's 1000 events.
 */
function relIds(column: string, path: string) {
  return sql.raw(
    `(select coalesce(json_agg(r.${column} order by r."order"), '[]') from events_rels r where r.parent_id = p.id and r.path = '${path}' and r.${column} is not null)`,
  )
}
