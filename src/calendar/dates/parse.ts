/*
 * Date input as the API accepts it: wall-clock dates and times, ISO 8601, Unix timestamps, and the
 * `strtotime` phrases that clients of the upstream API send in practice ("tomorrow 9am",
 * "next wednesday 4pm", "+5 days 11am"). The input is split into words, each word becomes a token,
 * and the tokens are read into a phrase (which day, what time, which shifts), once, at validation;
 * `resolve.ts` places it on a zone's clock when the request's zone and clock are known.
 */

export type Unit = 'years' | 'months' | 'weeks' | 'days' | 'hours' | 'minutes' | 'seconds'

/** -1 for "last", 0 for "this" (or none), 1 for "next". */
export type Direction = -1 | 0 | 1

interface Clock {
  hour: number
  minute: number
  second: number
  millisecond: number
}

type Token =
  | { kind: 'now' }
  | { kind: 'date'; year: number; month: number; day: number }
  | { kind: 'day'; days: number }
  | { kind: 'weekday'; weekday: number; direction: Direction }
  | ({ kind: 'time'; offset: number | null } & Clock)
  | { kind: 'modifier'; direction: Direction }
  | { kind: 'number'; amount: number }
  | { kind: 'unit'; unit: Unit }

export type Anchor = Extract<Token, { kind: 'now' | 'date' | 'day' | 'weekday' }>
type Time = Extract<Token, { kind: 'time' }>

export interface Phrase {
  anchor: Anchor | null
  time: Time | null
  shifts: Array<{ unit: Unit; amount: number }>
  /**
   * "this week", "next week", "last week": the week (Monday to Sunday) of now, the next or the last,
   * where the phrase's weekday is taken, or its Monday at the current time (PHP's `relativetextweek`:
   * "monday this week" is this week's Monday, "next week" next week's Monday), not a shift of seven
   * days ("+1 week" is).
   */
  week: Direction | null
}

function clock(hour: number, minute = 0, second = 0, millisecond = 0): Time {
  return { kind: 'time', offset: null, hour, minute, second, millisecond }
}

const KEYWORDS = new Map<string, Token>([
  ['now', { kind: 'now' }],
  ['today', { kind: 'day', days: 0 }],
  ['tomorrow', { kind: 'day', days: 1 }],
  ['yesterday', { kind: 'day', days: -1 }],
  ['midnight', clock(0)],
  ['noon', clock(12)],
  ['this', { kind: 'modifier', direction: 0 }],
  ['next', { kind: 'modifier', direction: 1 }],
  ['last', { kind: 'modifier', direction: -1 }],
])

/** Luxon numbers weekdays 1 (Monday) to 7 (Sunday). */
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

const UNITS = new Map<string, Unit>([
  ['year', 'years'],
  ['month', 'months'],
  ['week', 'weeks'],
  ['day', 'days'],
  ['hour', 'hours'],
  ['minute', 'minutes'],
  ['second', 'seconds'],
])

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const CLOCK_24H = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/
const CLOCK_12H = /^(\d{1,2})(?::(\d{2}))?(am|pm)$/
const UTC_OFFSET = /(z|[+-]\d{2}(?::?\d{2})?)$/
const NUMBER = /^[+-]?\d+$/

/** One word per token: ISO 8601 joins date and time with "T", people write "9 am" and "+5days". */
function words(input: string): string[] {
  return input
    .toLowerCase()
    .replace(/\b(\d{4}-\d{2}-\d{2})t/g, '$1 ')
    .replace(/(\d)\s+(am|pm)\b/g, '$1$2')
    .replace(/(\d)([a-z]{3,})/g, '$1 $2')
    .trim()
    .split(/\s+/)
}

/** Minutes east of UTC of an ISO 8601 offset (`z`, `+02`, `-0530`, `+05:30`); null past ±14:00. */
function offsetMinutes(offset: string): number | null {
  if (offset === 'z') return 0
  const digits = offset.slice(1).replace(':', '')
  const hours = Number(digits.slice(0, 2))
  const minutes = Number(digits.slice(2) || '0')
  if (minutes > 59 || hours * 60 + minutes > 14 * 60) return null
  return offset.startsWith('-') ? -(hours * 60 + minutes) : hours * 60 + minutes
}

/** `9am`, `4:30pm`. */
function read12HourClock(word: string): Time | null {
  const match = CLOCK_12H.exec(word)
  if (!match) return null
  const [, hour = '', minute = '0', meridiem] = match
  if (Number(hour) < 1 || Number(hour) > 12 || Number(minute) > 59) return null
  return clock((Number(hour) % 12) + (meridiem === 'pm' ? 12 : 0), Number(minute))
}

/** `16:00`, `16:00:00`, and the ISO 8601 time part with fraction and offset (`10:00:00.000+02:00`). */
function read24HourClock(word: string): Time | null {
  const offset = UTC_OFFSET.exec(word)?.[1] ?? null
  const match = CLOCK_24H.exec(offset === null ? word : word.slice(0, -offset.length))
  if (!match) return null
  const [, hour = '', minute = '', second = '0', fraction = '0'] = match
  const time = clock(
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0').slice(0, 3)),
  )
  if (time.hour > 23 || time.minute > 59 || time.second > 59) return null
  if (offset === null) return time
  const minutes = offsetMinutes(offset)
  return minutes === null ? null : { ...time, offset: minutes }
}

function readWeekday(word: string): number | null {
  // PHP takes the full name or its first three letters.
  const index = WEEKDAYS.findIndex((name) => name === word || name.slice(0, 3) === word)
  return index === -1 ? null : index + 1
}

function readToken(word: string): Token | null {
  const keyword = KEYWORDS.get(word)
  if (keyword) return keyword
  const weekday = readWeekday(word)
  if (weekday !== null) return { kind: 'weekday', weekday, direction: 0 }
  const unit = UNITS.get(word.replace(/s$/, ''))
  if (unit) return { kind: 'unit', unit }
  if (NUMBER.test(word)) return { kind: 'number', amount: Number(word) }
  const date = DATE.exec(word)
  if (date)
    return { kind: 'date', year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) }
  return read12HourClock(word) ?? read24HourClock(word)
}

/** Reads tokens into a phrase: at most one day, at most one time, any number of shifts. */
function readPhrase(tokens: Token[]): Phrase | null {
  const phrase: Phrase = { anchor: null, time: null, shifts: [], week: null }
  const rest = [...tokens]
  for (let token = rest.shift(); token; token = rest.shift()) {
    switch (token.kind) {
      case 'number':
      case 'modifier': {
        const target = rest.shift()
        if (token.kind === 'modifier' && target?.kind === 'unit' && target.unit === 'weeks') {
          if (phrase.week !== null) return null
          phrase.week = token.direction
          break
        }
        if (target?.kind === 'unit') {
          phrase.shifts.push({
            unit: target.unit,
            amount: token.kind === 'number' ? token.amount : token.direction,
          })
          break
        }
        // Otherwise only "next friday" / "last monday": a weekday with a direction.
        if (token.kind !== 'modifier' || target?.kind !== 'weekday' || phrase.anchor) return null
        phrase.anchor = { ...target, direction: token.direction }
        break
      }
      case 'time':
        if (phrase.time) return null
        phrase.time = token
        break
      case 'unit':
        // A unit needs a count: "+2 days", "next week".
        return null
      default:
        if (phrase.anchor) return null
        phrase.anchor = token
    }
  }
  // A week's day is a weekday of it ("monday next week"), not another anchor ("tomorrow next week").
  if (phrase.week !== null && phrase.anchor && phrase.anchor.kind !== 'weekday') return null
  if (phrase.week !== null && phrase.anchor?.kind === 'weekday' && phrase.anchor.direction !== 0)
    return null
  return phrase
}

/**
 * A date as an API client wrote it (`given`), read once: a Unix timestamp, or a phrase (which day,
 * what time, which shifts) that needs a zone and a clock to name an instant (`resolveDateInput`).
 */
export type DateInput = { given: string | number; read: { seconds: number } | Phrase }

/** The words of a date input read into a `DateInput`; null when they are not one of the supported forms. */
export function readDateInput(input: string | number): DateInput | null {
  if (typeof input === 'number' || /^\s*\d+\s*$/.test(input))
    return { given: input, read: { seconds: Number(input) } }
  const tokens: Token[] = []
  for (const word of words(input)) {
    const token = readToken(word)
    if (!token) return null
    tokens.push(token)
  }
  const phrase = readPhrase(tokens)
  return phrase && { given: input, read: phrase }
}

/** Luxon names instants up to 8.64e15 ms either side of 1970; two days less leave room for any zone's offset and day. */
const LATEST_SECONDS = 8.64e12 - 2 * 86_400

/**
 * Shifts past this many years in all could carry a phrase out of luxon's range (about 273,000 years
 * either side of 1970) from any date of years 0000–9999; a unit counts its longest length in years.
 */
const WIDEST_SHIFT_YEARS = 200_000

const YEARS_IN: Record<Unit, number> = {
  years: 1,
  months: 1 / 12,
  weeks: 7 / 365,
  days: 1 / 365,
  hours: 1 / 8_760,
  minutes: 1 / 525_600,
  seconds: 1 / 31_536_000,
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Whether a year, month and day name a day of the Gregorian calendar (no 2026-02-30). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]
  return days !== undefined && day >= 1 && day <= days
}

/**
 * A date input read as validation reads it: `readDateInput`, refused (null) unless it names an
 * instant on any zone's clock at any time: a real calendar day, a timestamp and shifts within
 * luxon's range. Checked on what was read, so that the input is placed on the site's clock once,
 * later, without reading it again (docs/architecture.md, "One read").
 */
export function readValidDateInput(input: string | number): DateInput | null {
  const read = readDateInput(input)
  if (!read) return null
  if ('seconds' in read.read) {
    const { seconds } = read.read
    return Number.isFinite(seconds) && Math.abs(seconds) <= LATEST_SECONDS ? read : null
  }
  const { anchor, shifts } = read.read
  if (anchor?.kind === 'date' && !isCalendarDay(anchor.year, anchor.month, anchor.day)) return null
  const years = shifts.reduce((sum, { unit, amount }) => sum + Math.abs(amount) * YEARS_IN[unit], 0)
  return years <= WIDEST_SHIFT_YEARS ? read : null
}
