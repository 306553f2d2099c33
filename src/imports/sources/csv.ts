/**
 * A CSV file of events, venues or organizers, with upstream's column headers (src/calendar/csvColumns.ts,
 * docs/api.md §23.3). Rows are numbered as a spreadsheet numbers them, the header being row 1. A row
 * that cannot be read (no name, an invalid date) is reported and written not at all.
 */
import { createHash } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import { parseCostInput } from '../../calendar/cost'
import {
  CSV_COLUMNS,
  NAME_COLUMN,
  readCsvBoolean,
  readCsvCell,
  readCsvDate,
  readCsvList,
  readCsvTime,
  readCurrencyPosition,
  type CsvKind,
  type CsvRecord,
} from '../../calendar/csvColumns'
import { parseZone } from '../../calendar/dates/zone'
import {
  IMPORT_KINDS,
  type EventItem,
  type ImportKind,
  type ImportSource,
  type ItemRef,
  type SourceItem,
  type UnreadableItem,
} from '../items'

/** The mapping table's name of every CSV file: a second file updates what the first one imported. */
export const CSV_SOURCE = 'csv'

export const CSV_KINDS: CsvKind[] = ['events', 'venues', 'organizers']

const ITEM_KIND: Record<CsvKind, ImportKind> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
}

/** A file that cannot be imported at all: not CSV, or no column naming its items. */
export class CsvFileError extends Error {}

/** The file's rows as items of its kind (given, or recognised by its name column). */
export function csvSource(text: string, kind?: CsvKind): ImportSource {
  let rows: string[][]
  try {
    rows = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][]
  } catch (error) {
    throw new CsvFileError(
      `Not a readable CSV file: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
  const headers = (rows[0] ?? []).map((header) => header.trim().toLowerCase())
  const fileKind =
    kind ?? CSV_KINDS.find((candidate) => headers.includes(NAME_COLUMN[candidate].toLowerCase()))
  if (!fileKind)
    throw new CsvFileError(
      `No column names the items: the header needs "${NAME_COLUMN.events}", "${NAME_COLUMN.venues}" or "${NAME_COLUMN.organizers}" (docs/api.md §23.3).`,
    )
  if (!headers.includes(NAME_COLUMN[fileKind].toLowerCase()))
    throw new CsvFileError(`A file of ${fileKind} needs a "${NAME_COLUMN[fileKind]}" column.`)
  const columns = columnIndexes(fileKind, headers)
  const records = rows.slice(1).map((cells) => {
    const record: Record<string, string> = {}
    for (const [field, index] of columns) record[field] = readCsvCell(cells[index] ?? '')
    return record
  })
  const itemKind = ITEM_KIND[fileKind]
  return {
    name: CSV_SOURCE,
    matchByName: IMPORT_KINDS,
    totals: { [itemKind]: records.length },
    async *items() {
      const seen = new Map<string, string>()
      for (const [index, record] of records.entries()) {
        const label = `row ${index + 2}`
        const item = readRow(fileKind, record, label)
        if ('error' in item) yield item
        else if (seen.has(item.sourceId))
          yield {
            kind: itemKind,
            label,
            error: `the same ${itemKind} as ${seen.get(item.sourceId)} (${sameMeans(fileKind)})`,
          }
        else {
          seen.set(item.sourceId, label)
          yield item
        }
      }
    },
  }
}

function sameMeans(kind: CsvKind): string {
  return kind === 'events'
    ? `same ${CSV_COLUMNS.events.title} and start, or same ${CSV_COLUMNS.events.uid}`
    : `same ${NAME_COLUMN[kind]}`
}

/** Each known column's field and its index in the file; headers match whatever their case. */
function columnIndexes(kind: CsvKind, headers: string[]): [string, number][] {
  return Object.entries(CSV_COLUMNS[kind] as Record<string, string>)
    .map(([field, header]): [string, number] => [field, headers.indexOf(header.toLowerCase())])
    .filter(([, index]) => index >= 0)
}

const READERS: {
  [K in CsvKind]: (record: CsvRecord<K>, problems: string[], label: string) => SourceItem
} = {
  events: eventItem,
  venues: (record, problems, label) => linkedItem('venue', record, problems, label),
  organizers: (record, problems, label) => linkedItem('organizer', record, problems, label),
}

function readRow(
  kind: CsvKind,
  record: Record<string, string>,
  label: string,
): SourceItem | UnreadableItem {
  const problems: string[] = []
  const item = (
    READERS[kind] as (
      record: Record<string, string>,
      problems: string[],
      label: string,
    ) => SourceItem
  )(record, problems, label)
  return problems.length ? { kind: ITEM_KIND[kind], label, error: problems.join('; ') } : item
}

/** A name as a key: the same name whatever its case and spacing. */
export function nameKey(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase()
}

function ref(name: string): ItemRef {
  return { sourceId: nameKey(name), name: name.trim() }
}

/** A cell as an optional value: undefined without its column, null when empty. */
function optional(cell: string | undefined): string | null | undefined {
  return cell === undefined ? undefined : cell.trim() || null
}

function flag(cell: string | undefined): boolean | undefined {
  return cell === undefined ? undefined : readCsvBoolean(cell)
}

function refs(cell: string | undefined): ItemRef[] | undefined {
  return cell === undefined ? undefined : readCsvList(cell).map(ref)
}

/** Venues and organizers are known by their names (upstream's importer matches them so). */
/** A venue's or organizer's row: its name, and each other column as optional text of the same field. */
function linkedItem(
  kind: 'venue' | 'organizer',
  record: Record<string, string | undefined>,
  problems: string[],
  label: string,
): SourceItem {
  const columns = kind === 'venue' ? 'venues' : 'organizers'
  const name = (record.name ?? '').trim()
  if (!name) problems.push(`${NAME_COLUMN[columns]} is empty`)
  const data = Object.fromEntries(
    Object.keys(CSV_COLUMNS[columns]).map((field) => [field, optional(record[field])]),
  )
  return { kind, label, sourceId: nameKey(name), data: { ...data, name } } as SourceItem
}

const COLUMN = CSV_COLUMNS.events

function eventItem(record: CsvRecord<'events'>, problems: string[], label: string): SourceItem {
  const title = (record.title ?? '').trim()
  if (!title) problems.push(`${COLUMN.title} is empty`)
  const date = (field: 'startDate' | 'endDate') => {
    const cell = (record[field] ?? '').trim()
    if (!cell) {
      if (field === 'startDate') problems.push(`${COLUMN[field]} is empty`)
      return undefined
    }
    const read = readCsvDate(cell)
    if (!read)
      problems.push(
        `${COLUMN[field]} is not a date: "${cell}" (YYYY-MM-DD, MM/DD/YYYY or DD-MM-YYYY)`,
      )
    return read ?? undefined
  }
  const time = (field: 'startTime' | 'endTime') => {
    const cell = (record[field] ?? '').trim()
    if (!cell) return undefined
    const read = readCsvTime(cell)
    if (!read)
      problems.push(`${COLUMN[field]} is not a time: "${cell}" (18:30, 18:30:00 or 6:30 pm)`)
    return read ?? undefined
  }
  const allDay = flag(record.allDay)
  const startDate = date('startDate')
  const startTime = time('startTime') ?? '00:00:00'
  const endDate = date('endDate') ?? startDate
  const endTime = time('endTime')
  const timezone = optional(record.timezone)
  if (timezone && !parseZone(timezone))
    problems.push(`${COLUMN.timezone} is not a known time zone: "${timezone}"`)
  const start = `${startDate} ${allDay ? '00:00:00' : startTime}`
  // As upstream: without an end time the end is the end date's midnight, or the start when there is no end date either; never before the start.
  const endClock = allDay
    ? '23:59:59'
    : (endTime ?? ((record.endDate ?? '').trim() ? '00:00:00' : startTime))
  const end = [`${endDate} ${endClock}`, start].sort()[1]!
  const cost = record.cost === undefined ? undefined : parseCostInput([record.cost])
  const data: EventItem = {
    title,
    description: optional(record.description),
    excerpt: optional(record.excerpt),
    start,
    end,
    allDay,
    timezone: timezone === undefined ? undefined : timezone && parseZone(timezone),
    venue: record.venue === undefined ? undefined : record.venue.trim() ? ref(record.venue) : null,
    organizers: refs(record.organizers),
    categories: refs(record.categories),
    tags: refs(record.tags),
    cost: cost?.values,
    currencySymbol:
      record.currencySymbol !== undefined
        ? optional(record.currencySymbol)
        : cost?.symbol || undefined,
    currencyPosition:
      record.currencyPosition !== undefined
        ? readCurrencyPosition(record.currencyPosition)
        : cost?.position || undefined,
    website: optional(record.website),
    image: optional(record.image),
    featured: flag(record.featured),
    sticky: flag(record.sticky),
    showMap: flag(record.showMap),
    showMapLink: flag(record.showMapLink),
  }
  const sourceId = (record.uid ?? '').trim() || eventKey(title, start)
  return { kind: 'event', label, sourceId, data }
}

/** An event row's id without an `Event UID`: its name and start, as upstream's importer recognises an event. */
function eventKey(title: string, start: string): string {
  return createHash('sha256')
    .update(`${nameKey(title)}\n${start}`)
    .digest('hex')
    .slice(0, 32)
}
