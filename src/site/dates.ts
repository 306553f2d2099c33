import { languageTag, type LanguageCode } from '../i18n/languages'

/** When something happens, on the wall clock of its own zone (`YYYY-MM-DD HH:MM:SS`), and that zone's name. */
export type When = { start: string; end: string; allDay: boolean; zone: string }

/** A wall clock as a Date whose UTC fields are that clock, to be formatted in UTC. */
function clock(wall: string): Date {
  return new Date(`${wall.replace(' ', 'T')}Z`)
}

function formatter(
  language: LanguageCode,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(languageTag(language), { ...options, timeZone: 'UTC' })
}

const DAY: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
}
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' }

export function formatDay(language: LanguageCode, wall: string): string {
  return formatter(language, DAY).format(clock(wall))
}

export function formatTime(language: LanguageCode, wall: string): string {
  return formatter(language, TIME).format(clock(wall))
}

/** "Thursday 12 June 2031, 19:30 – 22:00 CEST"; an all-day event by its days alone. */
export function formatWhen(language: LanguageCode, when: When): string {
  const sameDay = when.start.slice(0, 10) === when.end.slice(0, 10)
  if (when.allDay)
    return sameDay
      ? formatDay(language, when.start)
      : `${formatDay(language, when.start)} – ${formatDay(language, when.end)}`
  const start = `${formatDay(language, when.start)}, ${formatTime(language, when.start)}`
  const end = sameDay
    ? formatTime(language, when.end)
    : `${formatDay(language, when.end)}, ${formatTime(language, when.end)}`
  return `${start} – ${end} ${when.zone}`
}

/** A UTC wall clock of the namespace as a `datetime` attribute. */
export function utcInstant(utcWall: string): string {
  return `${utcWall.replace(' ', 'T')}Z`
}

export function monthName(language: LanguageCode, month: string): string {
  return formatter(language, { month: 'long', year: 'numeric' }).format(
    clock(`${month}-01 00:00:00`),
  )
}

/** Monday first: the week as the namespace's site has it by default. */
export function weekdayNames(language: LanguageCode): { long: string; short: string }[] {
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, day) => {
    const date = clock(`2024-01-0${day + 1} 00:00:00`)
    return {
      long: formatter(language, { weekday: 'long' }).format(date),
      short: formatter(language, { weekday: 'short' }).format(date),
    }
  })
}

export function whenOf(event: {
  start_date: string
  end_date: string
  all_day: boolean | null
  timezone_abbr: string
}): When {
  return {
    start: event.start_date,
    end: event.end_date,
    allDay: Boolean(event.all_day),
    zone: event.timezone_abbr,
  }
}
