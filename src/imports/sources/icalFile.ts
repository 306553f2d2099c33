/**
 * An iCalendar document's text, split for reading one VEVENT at a time (`ical.ts`): ical.js's tree of
 * a whole file is about ten times the file (26 MB for 10,000 events), and an import held it from its
 * first item to its last (docs/performance.md, "Memory").
 */
import ICAL from 'ical.js'

/** A file that is not iCalendar at all, or that ical.js cannot read. */
export class IcalFileError extends Error {}

/** `parse`'s result; a failure is the file's, refused with ical.js's reason. */
export function readable<T>(parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    throw new IcalFileError(
      `Not a readable iCalendar file: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
}

const parseComponent = (text: string) => readable(() => new ICAL.Component(ICAL.parse(text)))

/**
 * A VEVENT's text parsed as a child of its calendar, as it was in the file: ical.js resolves a TZID
 * against the calendar's own VTIMEZONEs before its built-in zones (a file's zone named `UTC` or `GMT`
 * is the file's), and writes times, so source ids, as it did with the whole file parsed.
 */
export const parseVevent = (text: string, calendar: ICAL.Component) =>
  readable(() => new ICAL.Component(ICAL.parse(text), calendar))

/**
 * The document's calendar without its VEVENTs, and each VEVENT's text (a VEVENT inside another
 * component, or one never ended, stays where it is, for ical.js to read or refuse). Text that is no
 * iCalendar is refused with what it seems to be.
 */
export function readCalendar(text: string): { calendar: ICAL.Component; vevents: string[] } {
  // ical.js skips what comes before the first line's text.
  const body = text.replace(/^\uFEFF/, '').trimStart()
  if (!/^BEGIN:VCALENDAR/i.test(body)) {
    const html = /^\s*<(!doctype|html)/i.test(body)
    throw new IcalFileError(
      html
        ? 'Not iCalendar: an HTML page (is this the feed’s own URL?)'
        : 'Not iCalendar: no BEGIN:VCALENDAR at the start.',
    )
  }
  const rest: string[] = []
  const vevents: string[] = []
  let event: string[] | undefined
  let depth = 0
  // Folded lines go on with a space or a tab, so no line of a value starts with BEGIN: or END:.
  for (const line of body.split(/(?<=\n)/)) {
    const begins = /^BEGIN:/i.test(line)
    if (begins && depth === 1 && /^BEGIN:VEVENT\r?\n?$/i.test(line)) event = []
    ;(event ?? rest).push(line)
    if (begins) depth++
    else if (/^END:/i.test(line) && --depth === 1 && event) {
      vevents.push(event.join(''))
      event = undefined
    }
  }
  if (event) rest.push(event.join(''))
  return { calendar: parseComponent(rest.join('')), vevents }
}
