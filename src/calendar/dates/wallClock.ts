/**
 * Zone arithmetic without luxon or moment, for code that also runs in the admin's browser bundle
 * (the recurrence editor and its summary), where those libraries and their zone data would weigh
 * more than the component itself.
 */

const OFFSET_ZONE = /^utc([+-])(\d{1,2})(?::(\d{2}))?$/i

/** Real-world offsets span UTC-12 to UTC+14. */
const MAX_OFFSET_MINUTES = 14 * 60

/** Minutes east of UTC of a `UTC±H[:MM]` zone, or null when the input is not one. */
export function offsetZoneMinutes(input: string): number | null {
  const match = OFFSET_ZONE.exec(input)
  if (!match) return null
  const [, sign, hours = '0', minutes = '0'] = match
  if (Number(minutes) > 59) return null
  const total = Number(hours) * 60 + Number(minutes)
  if (total > MAX_OFFSET_MINUTES) return null
  return sign === '-' ? -total : total
}

const readers = new Map<string, Intl.DateTimeFormat>()

/**
 * The wall clock of `instant` in a zone id (`Europe/Paris`, `UTC+2`) as a "floating" Date, one whose
 * UTC fields are that wall clock. Intl reads IANA zones; offset zones are shifted by hand, since Node
 * 20's Intl refuses `+02:00`. An unknown zone reads as UTC.
 */
export function floatingWallClock(instant: Date, zone: string): Date {
  const offset = offsetZoneMinutes(zone)
  if (offset !== null) return new Date(instant.getTime() + offset * 60_000)
  let reader = readers.get(zone)
  if (!reader) {
    try {
      reader = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
    } catch {
      return instant
    }
    readers.set(zone, reader)
  }
  const parts = Object.fromEntries(
    reader.formatToParts(instant).map(({ type, value }) => [type, Number(value)]),
  )
  return new Date(
    Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!),
  )
}

/**
 * The instant whose wall clock in `zone` is `wall` (a floating Date). The offset is read twice, the
 * second time at the first guess, so wall clocks next to a DST change land right; a wall clock that a
 * change skips (02:30 on a spring-forward night) lands an offset step later, as clocks do.
 */
export function instantOfWallClock(wall: Date, zone: string): Date {
  const offsetAt = (instant: Date) => floatingWallClock(instant, zone).getTime() - instant.getTime()
  const guess = new Date(wall.getTime() - offsetAt(wall))
  return new Date(wall.getTime() - offsetAt(guess))
}

/** `YYYY-MM-DDTHH:MM`, what a `datetime-local` input holds, for the wall clock of `instant` in `zone`. */
export function wallClockInput(instant: Date, zone: string): string {
  return floatingWallClock(instant, zone).toISOString().slice(0, 16)
}

/** The instant of a `datetime-local` (or `date`: midnight) input's value in `zone`; null when it holds no date. */
export function instantOfInput(input: string, zone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(input)
  if (!match) return null
  const [, year, month, day, hour = '0', minute = '0'] = match
  return instantOfWallClock(
    new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute))),
    zone,
  )
}
