/**
 * RFC 5545's syntax, as ical-generator wrote it before (docs/api.md §22): the same escaping and the same
 * folds, so feeds kept their text. Written here because its folding encoded every character on its own
 * (a second or more for a feed of 1000 events, docs/performance.md "The iCalendar feed").
 */

import { withoutControlCharacters } from '../../calendar/controlCharacters'

/**
 * TEXT (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, every line break `\n`; the other
 * control characters, which TEXT may not hold (a title stored with U+0001), dropped.
 */
export function text(value: string): string {
  // Line ends stay for the escaping below, which writes them `\n`.
  return withoutControlCharacters(value)
    .replace(/[\\;,]/g, '\\$&')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/**
 * A quoted parameter value (ORGANIZER's CN). RFC 5545 lets no DQUOTE or control character into one, and
 * no escape either: a name could otherwise close the quotes and add parameters of its own (`SENT-BY=`).
 * DQUOTE becomes `'`, a control character a space; backslashes are doubled, as ical-generator did.
 */
export function quoted(value: string): string {
  return `"${value
    .replace(/"/g, "'")
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\\/g, '\\\\')}"`
}

/** A URL as a URI value: its commas, semicolons and control characters percent-encoded, so that no TEXT escaping alters it. */
export function uriValue(url: string): string {
  return url
    .replace(/,/g, '%2C')
    .replace(/;/g, '%3B')
    .replace(/\p{Cc}/gu, (character) => encodeURIComponent(character))
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** A DATE-TIME in UTC (`20261201T180000Z`). */
export function utcValue(at: Date): string {
  return `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`
}

/** The fields of a wall clock, as luxon's DateTime has them. */
export type WallClock = {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

/** A DATE (`20261201`). */
export function dayValue(at: WallClock): string {
  return `${pad(at.year, 4)}${pad(at.month)}${pad(at.day)}`
}

/** A DATE-TIME on a wall clock, with no zone of its own (`20261201T190000`, with a TZID parameter). */
export function wallClockValue(at: WallClock): string {
  return `${dayValue(at)}T${pad(at.hour)}${pad(at.minute)}${pad(at.second)}`
}

/** A DURATION of whole seconds (`PT1H`, `P7D`), as ical-generator wrote REFRESH-INTERVAL. */
export function durationValue(seconds: number): string {
  const days = Math.floor(seconds / 86_400)
  const rest = seconds % 86_400
  if (days && !rest) return `P${days}D`
  const [hours, minutes, secs] = [
    Math.floor(rest / 3600),
    Math.floor((rest % 3600) / 60),
    rest % 60,
  ]
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${secs || (!hours && !minutes) ? `${secs}S` : ''}`
  return `P${days ? `${days}D` : ''}T${time}`
}

/** Octets a line may hold before it is folded: 74, and 74 after the space of each continuation. */
const FOLD_AT = 74

/**
 * A content line folded (RFC 5545 §3.1) and ended with CRLF: after every 74 octets of UTF-8, never inside a
 * character, a CRLF and a space. Most lines are ASCII and short: they are measured by their length.
 */
export function folded(line: string): string {
  if (line.length <= FOLD_AT && !/[\u0080-\uffff]/.test(line)) return `${line}\r\n`
  let result = ''
  let start = 0
  let octets = 0
  for (let i = 0; i < line.length;) {
    const code = line.codePointAt(i)!
    const units = code > 0xffff ? 2 : 1
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
    if (octets + size > FOLD_AT) {
      result += `${line.slice(start, i)}\r\n `
      start = i
      octets = 0
    }
    octets += size
    i += units
  }
  return `${result}${line.slice(start)}\r\n`
}
