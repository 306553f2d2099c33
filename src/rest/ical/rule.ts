import { ruleDates, type Recurrence } from '../../calendar/recurrence'
import { utcValue } from './syntax'
import { dateParameters, dateValue, type EventTimes } from './times'

/**
 * A series' `recurrence` as the RRULE, RDATE and EXDATE lines of its VEVENT (docs/api.md §16, §22).
 * The stored text's dates are wall clocks of the event's zone, UTC, or bare days, read by the
 * namespace's own parser; here each is written as RFC 5545 requires beside the DTSTART: UNTIL in UTC
 * (a date for all-day series), RDATE and EXDATE in the DTSTART's form. `excluded` adds the days the
 * caller sees no event on.
 */
export function ruleLines(
  text: string,
  recurrence: Recurrence,
  times: EventTimes,
  excluded: Date[],
): string[] {
  const { untils, rdates, exdates } = ruleDates(recurrence)
  const value = (at: Date) => dateValue(times, at)
  const until = (at: Date) => (times.allDay ? value(at) : utcValue(at))
  const rules = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^RRULE[:;]/i.test(line))
    .map((line, index) => {
      const parts = line
        .slice(line.indexOf(':') + 1)
        .split(';')
        .map((part) => part.trim().toUpperCase())
        .filter((part) => part && !part.startsWith('UNTIL='))
      const end = untils[index]
      return `RRULE:${[...parts, ...(end ? [`UNTIL=${until(end)}`] : [])].join(';')}`
    })
  const dates = (name: string, instants: Date[]) => {
    const values = [...new Set([...instants].sort((a, b) => a.getTime() - b.getTime()).map(value))]
    return values.length ? [`${name}${dateParameters(times)}:${values.join(',')}`] : []
  }
  return [...rules, ...dates('RDATE', rdates), ...dates('EXDATE', [...exdates, ...excluded])]
}
