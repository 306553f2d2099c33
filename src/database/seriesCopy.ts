import { sql } from '@payloadcms/db-postgres'
import { getTableColumns, type Table } from '@payloadcms/db-postgres/drizzle'
import type { Payload, PayloadRequest } from 'payload'
import toSnakeCase from 'to-snake-case'
import { requestQuery, type SQL } from './rawQuery'

/**
 * An occurrence of a series to bring in line with its first event: an existing one (`id`) or a new
 * one. `schedule` and `day` where the rule places it; an existing one without keeps its dates and slugs.
 */
export type OccurrenceRow = {
  id?: number
  schedule?: { start: string; end: string; startLocal: string; endLocal: string }
  day?: string
}

/**
 * What the copy needs of the model: the collection's table, its first event, the fields (drizzle's
 * keys, the fields' names) an occurrence keeps of its own and the localized slug, which an occurrence
 * takes with its day appended.
 */
export type SeriesCopy = {
  table: string
  parentId: number
  own: ReadonlySet<string>
  slug: string
  updatedAt: string
  rows: OccurrenceRow[]
}

type Column = { key: string; name: string }

/**
 * The adapter's name for a collection's table, or its versions' (`versions`): its map is keyed by the
 * slug in snake case as Payload makes it (`to-snake-case`: `APIKeys` is `a_p_i_keys`), and names a
 * table a developer named (`dbName`).
 */
export function tableNameOf(payload: Payload, slug: string, versions = false): string {
  const db = payload.db as unknown as {
    tableNameMap?: Map<string, string>
    versionsSuffix?: string
  }
  const key = versions ? `_${toSnakeCase(slug)}${db.versionsSuffix ?? '_v'}` : toSnakeCase(slug)
  return db.tableNameMap?.get(key) ?? key
}

export const tableOf = (req: PayloadRequest, name: string) =>
  (req.payload.db as unknown as { tables: Record<string, Table | undefined> }).tables[name]

export function columnsOf(req: PayloadRequest, name: string): Column[] {
  const table = tableOf(req, name)
  return table
    ? Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name }))
    : []
}

export const named = (columns: Column[], key: string) => {
  const column = columns.find((candidate) => candidate.key === key)
  if (!column) throw new Error(`The series' table has no column for ${key}.`)
  return sql.identifier(column.name)
}
export const list = (columns: Column[], prefix?: string) =>
  sql.join(
    columns.map(({ name }) =>
      prefix ? sql`${sql.identifier(prefix)}.${sql.identifier(name)}` : sql.identifier(name),
    ),
    sql`, `,
  )

/** An occurrence as the upkeep compares it with its rule. */
export type SeriesMember = {
  id: number
  start: string
  startLocal: string
  status: string
  recurrenceException: boolean
}

/**
 * A series' later occurrences, trashed ones included, in wall-clock order: one statement, where
 * Payload's find would run every field's read hooks on each of them.
 */
export async function seriesMembers(
  req: PayloadRequest,
  table: string,
  parentId: number,
): Promise<SeriesMember[]> {
  const main = columnsOf(req, table)
  const [start, startLocal, status, exception, parent] = [
    'start',
    'startLocal',
    'status',
    'recurrenceException',
    'parent',
  ].map((key) => named(main, key))
  return requestQuery<SeriesMember>(
    req,
    sql`select id, to_char(${start} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as start, ${startLocal} as "startLocal",
               ${status} as status, coalesce(${exception}, false) as "recurrenceException"
          from ${sql.identifier(table)} where ${parent} = ${parentId} order by ${startLocal}`,
  )
}

/** The occurrences as rows of the statement: `jsonb_to_recordset` of one parameter, whatever their number. */
const rowsOf = (
  rows: {
    id?: number
    start?: string
    end?: string
    start_local?: string
    end_local?: string
    day?: string
  }[],
): SQL =>
  sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as d(id integer, start timestamptz, "end" timestamptz, start_local text, end_local text, day text)`

/**
 * Writes the first event's values to every occurrence of `copy.rows` in a few set-based statements
 * (the rows, their translations, links and values), in the request's transaction, the first event
 * as it stands in the database: what Payload's adapter would write for each occurrence one by one,
 * the database's statement triggers (revision, change log, term counts) seeing the same rows.
 * Versions are not written, as the adapter's own writes do not write them.
 */
export async function copyToOccurrences(req: PayloadRequest, copy: SeriesCopy): Promise<void> {
  const { table, parentId, own, updatedAt } = copy
  const main = columnsOf(req, table)
  const copied = main.filter(({ key }) => !own.has(key))
  const dates = ['start', 'end', 'startLocal', 'endLocal'].map((key) => named(main, key))
  const [start, end, startLocal, endLocal] = dates
  const existing = copy.rows.filter((row) => row.id !== undefined)
  const flat = (row: OccurrenceRow) => ({
    id: row.id,
    day: row.day,
    start: row.schedule?.start,
    end: row.schedule?.end,
    start_local: row.schedule?.startLocal,
    end_local: row.schedule?.endLocal,
  })
  if (existing.length) {
    await requestQuery(
      req,
      sql`update ${sql.identifier(table)} o set
            ${sql.join(
              copied.map(({ name }) => sql`${sql.identifier(name)} = p.${sql.identifier(name)}`),
              sql`, `,
            )},
            ${named(main, 'updatedAt')} = ${updatedAt}::timestamptz,
            ${start} = coalesce(d.start, o.${start}), ${end} = coalesce(d."end", o.${end}),
            ${startLocal} = coalesce(d.start_local, o.${startLocal}), ${endLocal} = coalesce(d.end_local, o.${endLocal})
          from ${sql.identifier(table)} p, ${rowsOf(existing.map(flat))}
          where p.id = ${parentId} and o.id = d.id`,
    )
  }
  const fresh = copy.rows.filter((row) => row.id === undefined)
  const created = fresh.length
    ? await requestQuery<{ id: number; day: string }>(
        req,
        sql`insert into ${sql.identifier(table)} (${list(copied)}, ${sql.join(dates, sql`, `)}, ${named(main, 'parent')}, ${named(main, 'recurrenceException')},
              ${named(main, 'createdAt')}, ${named(main, 'updatedAt')})
            select ${list(copied, 'p')}, d.start, d."end", d.start_local, d.end_local, p.id, false, ${updatedAt}::timestamptz, ${updatedAt}::timestamptz
              from ${sql.identifier(table)} p, ${rowsOf(fresh.map(flat))}
             where p.id = ${parentId}
             order by d.start
            returning id, left(${startLocal}, 10) as day`,
      )
    : []
  const kept = existing.map(({ id, day }) => ({ id, day }))
  const targets = [...kept, ...created]
  if (!targets.length) return
  // Occurrences made just now have no translations or values to take away: their deletes are skipped.
  await copyLocales(req, copy, kept, targets)
  for (const suffix of ['_rels', '_texts', '_numbers'])
    await copyValues(req, `${table}${suffix}`, parentId, kept, targets)
}

/**
 * The first event's translations, in each of its languages and no other; the slug with the day when
 * the rule places the occurrence (none where the first event has none), and its id after that when
 * another event has that slug already (slugs name one event in a language), else the occurrence's own.
 */
async function copyLocales(
  req: PayloadRequest,
  { table, parentId, slug }: SeriesCopy,
  kept: { id?: number }[],
  targets: { id?: number; day?: string }[],
): Promise<void> {
  const name = `${table}_locales`
  const columns = columnsOf(req, name)
  if (!columns.length) return
  const [locale, parent, slugColumn] = ['_locale', '_parentID', slug].map((key) =>
    named(columns, key),
  )
  const copied = columns.filter(({ key }) => !['id', '_locale', '_parentID', slug].includes(key))
  const locales = sql.identifier(name)
  if (kept.length)
    await requestQuery(
      req,
      sql`delete from ${locales} l using ${rowsOf(kept)}
           where l.${parent} = d.id and not exists (select 1 from ${locales} pl where pl.${parent} = ${parentId} and pl.${locale} = l.${locale})`,
    )
  await requestQuery(
    req,
    sql`insert into ${locales} (${list(copied)}, ${slugColumn}, ${locale}, ${parent})
        select ${list(copied, 'pl')},
               case when d.day is null then ol.${slugColumn} when coalesce(pl.${slugColumn}, '') = '' then null
                    when exists (select from ${locales} taken
                                  where taken.${slugColumn} = pl.${slugColumn} || '-' || d.day
                                    and taken.${locale} = pl.${locale} and taken.${parent} <> d.id)
                      then pl.${slugColumn} || '-' || d.day || '-' || d.id
                    else pl.${slugColumn} || '-' || d.day end,
               pl.${locale}, d.id
          from ${locales} pl cross join ${rowsOf(targets)}
          left join ${locales} ol on ol.${parent} = d.id and ol.${locale} = pl.${locale}
         where pl.${parent} = ${parentId}
        on conflict (${locale}, ${parent}) do update set
          ${sql.join(
            [...copied, { key: slug, name: columns.find(({ key }) => key === slug)!.name }].map(
              ({ name: column }) =>
                sql`${sql.identifier(column)} = excluded.${sql.identifier(column)}`,
            ),
            sql`, `,
          )}`,
  )
}

/** The first event's links (`_rels`) or many values (`_texts`, `_numbers`), in their order, in place of the occurrences'. */
async function copyValues(
  req: PayloadRequest,
  name: string,
  parentId: number,
  kept: { id?: number }[],
  targets: { id?: number }[],
): Promise<void> {
  const columns = columnsOf(req, name)
  if (!columns.length) return
  const parent = named(columns, 'parent')
  const copied = columns.filter(({ key }) => key !== 'id' && key !== 'parent')
  const values = sql.identifier(name)
  if (kept.length)
    await requestQuery(
      req,
      sql`delete from ${values} v using ${rowsOf(kept)} where v.${parent} = d.id`,
    )
  await requestQuery(
    req,
    sql`insert into ${values} (${list(copied)}, ${parent})
        select ${list(copied, 'v')}, d.id from ${values} v cross join ${rowsOf(targets)}
         where v.${parent} = ${parentId} order by d.id, v.id`,
  )
}
