import { folded, quoted, text, utcValue } from './syntax'
import { dateParameters, dateValue, type EventTimes } from './times'

/** What a VEVENT says, as `event.ts` reads it from an event and `calendar.ts` adds the series' parts. */
export type VEvent = {
  uid: string
  sequence: number
  /** The last change: DTSTAMP and LAST-MODIFIED. */
  modified: Date
  times: EventTimes
  summary: string
  created?: Date
  description?: { plain: string; html?: string }
  location?: { title: string; address?: string; geo?: { lat: number; lon: number } }
  url?: string
  /** The featured image's URI value: ATTACH, and RFC 7986's IMAGE, which applications show with the event. */
  image?: string
  categories: string[]
  organizer?: { name: string; email: string }
  status?: 'CONFIRMED' | 'TENTATIVE'
  private?: boolean
  /** A series' first event: its RRULE, RDATE and EXDATE lines. */
  rule?: string[]
  /** An exception: the rule's start on its day. */
  recurrenceId?: Date
}

/** The event's VEVENT, folded, its properties in the order ical-generator wrote them (docs/api.md §22). */
export function vevent(event: VEvent): string {
  const { times } = event
  const lines = [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcValue(event.modified)}`,
  ]
  const parameters = dateParameters(times)
  lines.push(`DTSTART${parameters}:${times.start}`, `DTEND${parameters}:${times.end}`)
  if (times.allDay)
    lines.push('X-MICROSOFT-CDO-ALLDAYEVENT:TRUE', 'X-MICROSOFT-MSNCALENDAR-ALLDAYEVENT:TRUE')
  if (event.rule) lines.push(...event.rule)
  // A date-time always: on the wall clock with its TZID, else in UTC (series.ts keeps all-day exceptions apart).
  if (event.recurrenceId)
    lines.push(
      times.timezone
        ? `RECURRENCE-ID${parameters}:${dateValue(times, event.recurrenceId)}`
        : `RECURRENCE-ID:${utcValue(event.recurrenceId)}`,
    )
  lines.push(`SUMMARY:${text(event.summary)}`)
  const { location, description, organizer } = event
  if (location?.title)
    lines.push(
      `LOCATION:${text(location.address ? `${location.title}\n${location.address}` : location.title)}`,
    )
  if (location?.geo) lines.push(`GEO:${location.geo.lat};${location.geo.lon}`)
  if (description)
    lines.push(
      `DESCRIPTION:${text(description.plain)}`,
      ...(description.html ? [`X-ALT-DESC;FMTTYPE=text/html:${text(description.html)}`] : []),
    )
  if (organizer)
    lines.push(`ORGANIZER;CN=${quoted(organizer.name)}:mailto:${text(organizer.email)}`)
  if (event.categories.length) lines.push(`CATEGORIES:${event.categories.map(text).join(',')}`)
  if (event.url) lines.push(`URL;VALUE=URI:${text(event.url)}`)
  if (event.image) lines.push(`ATTACH:${text(event.image)}`)
  if (event.status) lines.push(`STATUS:${event.status}`)
  if (event.created) lines.push(`CREATED:${utcValue(event.created)}`)
  lines.push(`LAST-MODIFIED:${utcValue(event.modified)}`)
  if (event.private) lines.push('CLASS:PRIVATE')
  if (event.image) lines.push(`IMAGE;VALUE=URI;DISPLAY=BADGE:${text(event.image)}`)
  lines.push('END:VEVENT')
  return lines.map(folded).join('')
}
