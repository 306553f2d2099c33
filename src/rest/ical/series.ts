import { DateTime } from 'luxon'
import { toLuxonZone } from '../../calendar/dates/zone'
import { occurrencesUntil, parseRecurrence, type Recurrence } from '../../calendar/recurrence'
import type { Event } from '../../payload-types'
import type { SeriesMember } from '../../operations/events/seriesMembers'

/**
 * How a series is written (docs/api.md §22): its first event is one VEVENT carrying the rule, and the
 * rule's days are what the caller's list shows of the series.
 */
export type SeriesPlan = {
  parentId: number
  recurrence: Recurrence
  /** Events edited on their own, on a day the rule gives: VEVENTs with RECURRENCE-ID, the rule's start on that day. */
  exceptions: Map<number, Date>
  /** Later events on days the rule does not give (moved, or kept by a rule change): VEVENTs of their own. */
  apart: Set<number>
  /** Days the rule gives without an event the caller sees (not theirs to read, hidden, not made): EXDATEs. */
  excluded: Date[]
}

/**
 * Matches the rule's days with the series' later events the caller sees, by day in the zone as the
 * series upkeep does (collections/series.ts), through the day of the latest event the series has
 * made (`latest`); later days follow the rule. Undefined when the stored rule does not parse: the event is then single.
 */
export function planSeries(
  parent: Event,
  zoneId: string,
  members: SeriesMember[],
  latest: Date | undefined,
): SeriesPlan | undefined {
  const parsed = parseRecurrence(
    parent.recurrence ?? '',
    new Date(parent.start),
    zoneId,
    parent.allDay ?? false,
  )
  if (!parsed.ok) return undefined
  const zone = toLuxonZone(zoneId)
  // Through the whole day of the latest event: one moved earlier on its day still stands for that
  // day's date of the rule, which would otherwise be left to the rule and written twice.
  const until = DateTime.fromMillis(
    Math.max(latest?.getTime() ?? 0, new Date(parent.start).getTime()),
    { zone },
  )
    .endOf('day')
    .toJSDate()
  const byDay = new Map<string, Date>()
  const excluded: Date[] = []
  for (const at of occurrencesUntil(parsed.recurrence, until, Number.POSITIVE_INFINITY)) {
    const day = DateTime.fromJSDate(at, { zone }).toISODate()!
    // The upkeep makes one event a day, at the rule's last time of that day.
    const shadowed = byDay.get(day)
    if (shadowed) excluded.push(shadowed)
    byDay.set(day, at)
  }
  const exceptions = new Map<number, Date>()
  const apart = new Set<number>()
  const covered = new Set<string>()
  for (const member of members) {
    const day = member.startLocal.slice(0, 10)
    const at = byDay.get(day)
    // RECURRENCE-ID is written as a date-time only, which no all-day instance matches: an
    // all-day exception stands apart and its day is excluded from the rule.
    if (!at || covered.has(day) || (member.recurrenceException && parent.allDay)) {
      apart.add(member.id)
      continue
    }
    covered.add(day)
    if (member.recurrenceException) exceptions.set(member.id, at)
  }
  for (const [day, at] of byDay) if (!covered.has(day)) excluded.push(at)
  return { parentId: parent.id, recurrence: parsed.recurrence, exceptions, apart, excluded }
}
