/**
 * Benchmark datasets written straight into PostgreSQL with set-based SQL (minutes, not hours, for
 * 1M events): each event with a venue, 2 organizers, 2 categories and 2 tags, spread over three
 * years around today (or, recurring, half of them in weekly series); a third translated into French
 * and Arabic; a few percent drafts, password-protected or hidden from listings. The tables are
 * Payload's, created by the committed migrations.
 */
import pg from 'pg'

/** Occurrences per series in the recurring dataset: two years of a weekly event. */
export const SERIES_LENGTH = 104

/**
 * `recurring`: half the events are occurrences of weekly series of 104 (docs/api.md §16), the
 * parent first, each occurrence pointing at it, as the series upkeep writes them.
 */
export async function generateDataset(
  databaseUrl: string,
  events: number,
  { recurring = false } = {},
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const venues = Math.max(50, Math.floor(events / 20))
  const organizers = Math.max(50, Math.floor(events / 10))
  const seriesCount = recurring ? Math.floor(events / 2 / SERIES_LENGTH) : 0
  const statements = [
    `insert into event_categories (id) select g from generate_series(1, 20) g`,
    `insert into event_categories_locales (name, slug, _locale, _parent_id) select 'Category ' || g, 'category-' || g, 'en', g from generate_series(1, 20) g`,
    `insert into event_tags (id) select g from generate_series(1, 50) g`,
    `insert into event_tags_locales (name, slug, _locale, _parent_id) select 'Tag ' || g, 'tag-' || g, 'en', g from generate_series(1, 50) g`,
    `insert into venues (id, status, published_at, address, city, country, zip, geo_lat, geo_lng)
       select g, 'publish', now() - g * interval '1 minute', g || ' Main Street', 'City ' || (g % 200), 'France', lpad((g % 99999)::text, 5, '0'),
              43 + (g % 500) / 100.0, 1 + (g % 400) / 100.0
       from generate_series(1, ${venues}) g`,
    `insert into venues_locales (name, slug, _locale, _parent_id) select 'Venue ' || g, 'venue-' || g, 'en', g from generate_series(1, ${venues}) g`,
    `insert into organizers (id, status, published_at, email, phone)
       select g, 'publish', now() - g * interval '1 minute', 'organizer' || g || '@example.org', '+33 1 00 00 ' || lpad((g % 10000)::text, 4, '0')
       from generate_series(1, ${organizers}) g`,
    `insert into organizers_locales (name, slug, _locale, _parent_id) select 'Organizer ' || g, 'organizer-' || g, 'en', g from generate_series(1, ${organizers}) g`,
    `insert into events (id, status, published_at, start, "end", start_local, end_local, venue_id, has_password, password, hide_from_listings, featured, timezone, parent_id, recurrence)
       select g, case when g % 40 = 0 and occurrence is null then 'draft' else 'publish' end::enum_events_status, now() - interval '1 day', at, at + interval '2 hours',
              to_char(at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'), to_char((at + interval '2 hours') at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
              1 + g % ${venues}, g % 97 = 0 and occurrence is null, case when g % 97 = 0 and occurrence is null then 'secret' end, g % 89 = 0 and occurrence is null, g % 13 = 0, null,
              case when occurrence > 0 then g - occurrence end, case when occurrence = 0 then 'RRULE:FREQ=WEEKLY;COUNT=${SERIES_LENGTH}' end
       from (select g, occurrence,
                    case when occurrence is null then date_trunc('hour', now() - interval '18 months' + (g::float8 / ${events}) * interval '36 months')
                         else date_trunc('hour', now() - interval '18 months' + ((g - 1) / ${SERIES_LENGTH})::float8 / ${seriesCount} * interval '12 months') + occurrence * interval '1 week' end as at
               from (select g, case when g <= ${seriesCount * SERIES_LENGTH} then (g - 1) % ${SERIES_LENGTH} end as occurrence from generate_series(1, ${events}) g) numbered) s`,
    `insert into events_locales (title, description_html, slug, _locale, _parent_id)
       select 'Event ' || g, '<p>Description of event ' || g || '.</p>', 'event-' || g, 'en', g from generate_series(1, ${events}) g`,
    `insert into events_locales (title, slug, _locale, _parent_id)
       select 'Événement ' || g, 'evenement-' || g, 'fr', g from generate_series(3, ${events}, 3) g`,
    `insert into events_locales (title, slug, _locale, _parent_id)
       select 'فعالية ' || g, 'faaliya-' || g, 'ar', g from generate_series(3, ${events}, 3) g`,
    `insert into events_rels ("order", parent_id, path, organizers_id)
       select k, g, 'organizers', 1 + (g * 7 + k) % ${organizers} from generate_series(1, ${events}) g, generate_series(1, 2) k`,
    `insert into events_rels ("order", parent_id, path, event_categories_id)
       select k, g, 'categories', 1 + (g + k * 7) % 20 from generate_series(1, ${events}) g, generate_series(1, 2) k`,
    `insert into events_rels ("order", parent_id, path, event_tags_id)
       select k, g, 'tags', 1 + (g * 3 + k * 11) % 50 from generate_series(1, ${events}) g, generate_series(1, 2) k`,
    `insert into events_texts ("order", parent_id, path, text) select 1, g, 'cost', (g % 5 * 10)::text from generate_series(1, ${events}) g`,
  ]
  for (const statement of statements) await client.query(statement)
  for (const table of [
    'events',
    'events_locales',
    'events_rels',
    'events_texts',
    'venues',
    'venues_locales',
    'organizers',
    'organizers_locales',
    'event_categories',
    'event_categories_locales',
    'event_tags',
    'event_tags_locales',
  ]) {
    await client.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 1))`,
    )
  }
  // As a live database is after autovacuum's first pass: visibility map and hint bits set, statistics
  // taken. Left to autovacuum, its pass over the fresh event texts and change log of a million events
  // ran during the measurements (docs/performance.md, "Measuring").
  await client.query('vacuum (analyze)')
  await client.end()
}
