/**
 * Dates in words, by the browser's Intl. The grid's days and an event's own times are wall clocks
 * (formatted as UTC, so no zone moves them); only "your time" is the reader's zone.
 */

function instantOfWall(wall: string): Date {
  return new Date(`${wall.slice(0, 10)}T${wall.slice(11, 19) || '00:00:00'}Z`)
}

function utcFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })
}

export function monthTitle(day: string, locale: string): string {
  return utcFormat(locale, { month: 'long', year: 'numeric' }).format(instantOfWall(day))
}

export function dayTitle(day: string, locale: string): string {
  return utcFormat(locale, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(instantOfWall(day))
}

export function rangeTitle(first: string, last: string, locale: string): string {
  return utcFormat(locale, { day: 'numeric', month: 'long', year: 'numeric' }).formatRange(
    instantOfWall(first),
    instantOfWall(last),
  )
}

export function weekdayName(day: string, locale: string, width: 'short' | 'long'): string {
  return utcFormat(locale, { weekday: width }).format(instantOfWall(day))
}

export function dayNumber(day: string, locale: string): string {
  return utcFormat(locale, { day: 'numeric' }).format(instantOfWall(day))
}

export function shortDate(day: string, locale: string): string {
  return utcFormat(locale, { weekday: 'short', day: 'numeric', month: 'short' }).format(
    instantOfWall(day),
  )
}

export function wallTime(wall: string, locale: string): string {
  return utcFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(instantOfWall(wall))
}

const WHEN: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
}
const WHOLE_DAYS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
}

/** From start to end on the event's own wall clock. */
export function eventRange(start: string, end: string, allDay: boolean, locale: string): string {
  return utcFormat(locale, allDay ? WHOLE_DAYS : WHEN).formatRange(
    instantOfWall(start),
    instantOfWall(end),
  )
}

/** The same instants on the reader's clock, with the reader's zone named. */
export function readerRange(utcStart: string, utcEnd: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { ...WHEN, timeZoneName: 'short' }).formatRange(
    instantOfWall(utcStart),
    instantOfWall(utcEnd),
  )
}
