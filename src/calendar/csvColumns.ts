/**
 * The CSV form of events, venues and organizers: the column headers of upstream's CSV importer (plus
 * `Event UID`), the field each one carries, and how values are written in a cell. The import reads
 * files by this table and the export (`GET /events.csv`) writes it, in this order, so an export imports
 * back unchanged (docs/api.md §23). Cells a spreadsheet would run as formulas are written with a
 * leading `'`, which the import takes off again (`writeCsvCell`, `readCsvCell`).
 */
import type { CurrencyPosition } from './cost'

export type CsvKind = 'events' | 'venues' | 'organizers'

export const CSV_COLUMNS = {
  events: {
    uid: 'Event UID',
    title: 'Event Name',
    description: 'Event Description',
    excerpt: 'Event Excerpt',
    startDate: 'Event Start Date',
    startTime: 'Event Start Time',
    endDate: 'Event End Date',
    endTime: 'Event End Time',
    allDay: 'All Day Event',
    timezone: 'Timezone',
    venue: 'Event Venue Name',
    organizers: 'Event Organizer Name',
    showMapLink: 'Event Show Map Link',
    showMap: 'Event Show Map',
    cost: 'Event Cost',
    currencySymbol: 'Event Currency Symbol',
    currencyPosition: 'Event Currency Position',
    categories: 'Event Category',
    tags: 'Event Tags',
    website: 'Event Website',
    image: 'Event Featured Image',
    featured: 'Event Featured',
    sticky: 'Event Sticky',
  },
  venues: {
    name: 'Venue Name',
    description: 'Venue Description',
    address: 'Venue Address',
    city: 'Venue City',
    country: 'Venue Country',
    stateProvince: 'Venue State/Province',
    zip: 'Venue Zip',
    phone: 'Venue Phone',
    website: 'Venue Website',
  },
  organizers: {
    name: 'Organizer Name',
    description: 'Organizer Description',
    email: 'Organizer Email',
    phone: 'Organizer Phone',
    website: 'Organizer Website',
  },
} as const satisfies Record<CsvKind, Record<string, string>>

/** The fields of a kind's rows. */
export type CsvField<K extends CsvKind> = keyof (typeof CSV_COLUMNS)[K]

/** One row as cells by field; a field whose column the file lacks is absent. */
export type CsvRecord<K extends CsvKind> = Partial<Record<CsvField<K>, string>>

/** The column that names a row's item, by which a file's kind is recognised. */
export const NAME_COLUMN: Record<CsvKind, string> = {
  events: CSV_COLUMNS.events.title,
  venues: CSV_COLUMNS.venues.name,
  organizers: CSV_COLUMNS.organizers.name,
}

/** The cells of a row in the table's column order, each as `writeCsvCell` writes it. */
export function csvRow<K extends CsvKind>(kind: K, record: CsvRecord<K>): string[] {
  return (Object.keys(CSV_COLUMNS[kind]) as CsvField<K>[]).map((field) =>
    writeCsvCell(record[field] ?? ''),
  )
}

/** What starts a formula in a spreadsheet (OWASP's CSV injection list), after any `'` already there. */
const FORMULA_START = /^'*[=+\-@\t\r]/

/** A plain number (`-5`, `-3.7`, `+2`) is read as a number, never run: OWASP leaves it as it is. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/

/**
 * A cell as the export writes it: one `'` before a cell a spreadsheet would run as a formula, which
 * makes it text there. A cell that already starts with `'` before such a character gets one more, so
 * that `readCsvCell` gives back exactly what was written.
 */
export function writeCsvCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text
}

/** A cell as the import reads it: the `'` that `writeCsvCell` (or a spreadsheet's text marker) put before a formula character is taken off. */
export function readCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell
}

export function csvHeaders(kind: CsvKind): string[] {
  return Object.values(CSV_COLUMNS[kind])
}

/** As upstream: `yes`, `true` and `1` in any case are true, anything else false. */
export function readCsvBoolean(cell: string): boolean {
  return /^(yes|true|1)$/i.test(cell.trim())
}

export function writeCsvBoolean(value: boolean | null | undefined): string {
  return value ? 'TRUE' : 'FALSE'
}

/** Names in one cell, comma-separated (organizers, categories, tags). */
export function readCsvList(cell: string): string[] {
  return [
    ...new Set(
      cell
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ]
}

export function writeCsvList(names: string[]): string {
  return names.join(', ')
}

/** Upstream's words: `suffix` or `after` put the symbol after the amount, anything else before; empty: the site's setting. */
export function readCurrencyPosition(cell: string): CurrencyPosition {
  if (!cell.trim()) return ''
  return /suffix|after|postfix/i.test(cell) ? 'postfix' : 'prefix'
}

export function writeCurrencyPosition(position: CurrencyPosition | null | undefined): string {
  return position === 'postfix' ? 'suffix' : (position ?? '')
}

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/
const DAY_FIRST_DATE = /^(\d{1,2})-(\d{1,2})-(\d{4})$/

/**
 * A date cell as `YYYY-MM-DD`, or null when it is none. Upstream's rule for the ambiguous forms:
 * slashes put the month first (`03/15/2026`), hyphens the day (`15-03-2026`); `2026-03-15` is always
 * unambiguous.
 */
export function readCsvDate(cell: string): string | null {
  const text = cell.trim()
  let parts: [string, string, string] | undefined
  let match: RegExpExecArray | null
  if ((match = ISO_DATE.exec(text))) parts = [match[1]!, match[2]!, match[3]!]
  else if ((match = US_DATE.exec(text))) parts = [match[3]!, match[1]!, match[2]!]
  else if ((match = DAY_FIRST_DATE.exec(text))) parts = [match[3]!, match[2]!, match[1]!]
  if (!parts) return null
  const [year, month, day] = parts.map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`
}

const CLOCK_24H = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/
const CLOCK_12H = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?\s*m\.?$/i

/** A time cell as `HH:MM:SS`, or null when it is none: 24-hour `18:30[:00]` or 12-hour `6:30 pm`, `6pm`, `6:30 p.m.` */
export function readCsvTime(cell: string): string | null {
  const text = cell.trim()
  const twelve = CLOCK_12H.exec(text)
  const match = twelve ?? CLOCK_24H.exec(text)
  if (!match) return null
  let hour = Number(match[1])
  const minute = Number(match[2] ?? 0)
  const second = Number(match[3] ?? 0)
  if (twelve) {
    if (hour < 1 || hour > 12) return null
    hour = (hour % 12) + (match[4]!.toLowerCase() === 'p' ? 12 : 0)
  }
  if (hour > 23 || minute > 59 || second > 59) return null
  return `${pad(hour)}:${pad(minute)}:${pad(second)}`
}

function pad(value: number): string {
  return String(value).padStart(2, '0')
}
