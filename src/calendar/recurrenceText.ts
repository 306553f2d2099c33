/**
 * A `recurrence` text read line by line into its parts, without judging it: what the admin's editor
 * and the readable summary work on, in the browser as on the server. Whether a rule is acceptable is
 * `parseRecurrence`'s decision (recurrence.ts), made when the event is saved.
 */

/** RFC 5545's weekdays, in the order of a week starting on Monday. */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** One RRULE's parts, names and values upper-cased, in the order written. */
export type RuleParts = Map<string, string>

export type RecurrenceLines = {
  rules: RuleParts[]
  /** Values of the RDATE and EXDATE lines, as written (`YYYYMMDD`, `YYYYMMDDTHHMMSS`, `...Z`). */
  rdates: string[]
  exdates: string[]
}

const LINE = /^(RRULE|RDATE|EXDATE)(?:;VALUE=(?:DATE|DATE-TIME))?:(.+)$/i

/** Null when a line is none of RRULE, RDATE, EXDATE, or a rule part is not NAME=VALUE. */
export function readRecurrenceLines(text: string): RecurrenceLines | null {
  const lines: RecurrenceLines = { rules: [], rdates: [], exdates: [] }
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line) continue
    const match = LINE.exec(line)
    if (!match) return null
    const name = match[1]!.toUpperCase()
    const value = match[2]!.trim().toUpperCase()
    if (name === 'RRULE') {
      const parts: RuleParts = new Map()
      for (const part of value.split(';')) {
        const [key, val, ...rest] = part.split('=')
        if (!key?.trim() || val === undefined || rest.length) return null
        parts.set(key.trim(), val.trim())
      }
      lines.rules.push(parts)
      continue
    }
    const values = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
    ;(name === 'RDATE' ? lines.rdates : lines.exdates).push(...values)
  }
  return lines
}

/** The text of the lines: one RRULE line per rule, then one RDATE and one EXDATE line holding every date. */
export function writeRecurrenceLines({ rules, rdates, exdates }: RecurrenceLines): string {
  return [
    ...rules.map(
      (parts) => `RRULE:${[...parts].map(([name, value]) => `${name}=${value}`).join(';')}`,
    ),
    ...(rdates.length ? [`RDATE:${rdates.join(',')}`] : []),
    ...(exdates.length ? [`EXDATE:${exdates.join(',')}`] : []),
  ].join('\n')
}

const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/

/** A date of the text: its floating wall clock (UTC fields), whether it has a time, whether that time is UTC. */
export type RuleDate = { floating: Date; hasTime: boolean; utc: boolean }

export function readRuleDate(value: string): RuleDate | null {
  const match = DATE_VALUE.exec(value)
  if (!match) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', z] = match
  const floating = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s))
  if (floating.getUTCDate() !== +d! || floating.getUTCMonth() !== +mo! - 1) return null
  return { floating, hasTime: match[4] !== undefined, utc: z === 'Z' }
}
