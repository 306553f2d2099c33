/**
 * The clocks of an iCalendar file's times: IANA zones its TZIDs name, and the zones it defines
 * itself (VTIMEZONE), which ical.js expands on the server's thread, so those too costly to expand are
 * refused (docs/api.md §23.8).
 */
import ICAL from 'ical.js'
import { findIana } from 'windows-iana'
import { parseZone } from '../../calendar/dates/zone'

/** The IANA zone a TZID names: itself, a path ending in one (`/mozilla.org/…/Europe/Paris`), or a Windows name (Outlook's). */
export function ianaZone(tzid: string): string | null {
  const parts = tzid.trim().split('/')
  for (let i = 0; i < parts.length; i++) {
    const zone = parseZone(parts.slice(i).join('/'))
    if (zone && !/^UTC[+-]/.test(zone)) return zone
  }
  return findIana(tzid.trim())?.[0] ?? null
}

export type Zones = {
  byTzid: Map<string, ICAL.Timezone>
  /** The file's zones it will not expand, each with why: the events on their clocks are unreadable. */
  refused: Map<string, string>
  floating: string | null
}

/**
 * The most changes of offset a file's own zone may make from its first to five years from now,
 * which ical.js works out in full, on the server's thread, the first time a time is read on its
 * clock: a zone of 200 bytes whose rule repeated hourly from 2000 held the thread 2.2 s, minutely from
 * 1601 it grew past 4 GB. A real zone changes twice a year (a few hundred changes since 1800).
 */
const MAX_ZONE_CHANGES = 5_000

/** Why ical.js should not expand this VTIMEZONE, if it should not: its changes, estimated from its rules. */
function zoneTooCostly(zone: ICAL.Component): string | undefined {
  const until = new Date().getUTCFullYear() + 5
  let changes = 0
  for (const part of [
    ...zone.getAllSubcomponents('standard'),
    ...zone.getAllSubcomponents('daylight'),
  ]) {
    changes += part.getAllProperties('rdate').length
    const start = part.getFirstPropertyValue('dtstart')
    for (const property of part.getAllProperties('rrule')) {
      const rule = property.getFirstValue() as ICAL.Recur
      // Offsets change by the year: a rule finer than that, or one without its month, is no zone's.
      if (rule.freq !== 'YEARLY' || !rule.parts.BYMONTH)
        return 'repeats its changes of offset more often than once a year in a month'
      const first = start instanceof ICAL.Time ? start.year : until
      const last = rule.until ? Math.min(rule.until.year, until) : until
      const perYear = (rule.parts.BYMONTH?.length ?? 1) * Math.max(1, rule.parts.BYDAY?.length ?? 1)
      changes += Math.max(0, last - first + 1) * perYear
    }
    if (changes > MAX_ZONE_CHANGES)
      return `changes its offset more than ${MAX_ZONE_CHANGES} times before ${until}`
  }
  return undefined
}

/** The file's own zones by TZID, those it will not expand apart, and the clock of its floating times. */
export function zonesOf(calendar: ICAL.Component): Zones {
  const written = calendar.getFirstPropertyValue('x-wr-timezone')
  const defaultZone = typeof written === 'string' ? written.trim() : ''
  const byTzid = new Map<string, ICAL.Timezone>()
  const refused = new Map<string, string>()
  for (const component of calendar.getAllSubcomponents('vtimezone')) {
    const tzid = component.getFirstPropertyValue('tzid')
    if (typeof tzid !== 'string') continue
    const cost = zoneTooCostly(component)
    if (cost) refused.set(tzid, cost)
    else byTzid.set(tzid, new ICAL.Timezone(component))
  }
  return {
    byTzid,
    refused,
    // Floating times are on the calendar's clock (Google's X-WR-TIMEZONE), else on the site's.
    floating: (defaultZone && ianaZone(defaultZone)) || null,
  }
}
