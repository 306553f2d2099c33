import ICAL from 'ical.js'
import type { When } from './dates'
import type { Namespace } from './namespace'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function wallOf(time: ICAL.Time): string {
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`
}

/**
 * What the namespace shows anyone of a password-protected event: its title and times. Its single
 * read withholds even those (docs/api.md §5); its iCalendar file keeps them (docs/api.md §22.2), so
 * they are read from there. Undefined when the file has none to show.
 */
export async function lockedEvent(
  ns: Namespace,
  slug: string,
): Promise<{ title: string; when: When } | undefined> {
  const file = await ns.text(`/events/by-slug/${encodeURIComponent(slug)}.ics`)
  if (file.status !== 200) return undefined
  const vevent = new ICAL.Component(ICAL.parse(file.body)).getFirstSubcomponent('vevent')
  const start = vevent?.getFirstPropertyValue('dtstart')
  const end = vevent?.getFirstPropertyValue('dtend')
  if (!vevent || !(start instanceof ICAL.Time) || !(end instanceof ICAL.Time)) return undefined
  const last = end.clone()
  // An all-day event's DTEND is the day after its last.
  if (end.isDate) last.adjust(-1, 0, 0, 0)
  const tzid = vevent.getFirstProperty('dtstart')?.getParameter('tzid')
  return {
    title: String(vevent.getFirstPropertyValue('summary') ?? ''),
    when: {
      start: wallOf(start),
      end: wallOf(last),
      allDay: start.isDate,
      zone: typeof tzid === 'string' ? tzid : 'UTC',
    },
  }
}
