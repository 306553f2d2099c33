import ical, { escape, ICalCalendarMethod, type ICalEventData } from 'ical-generator'
import { DateTime } from 'luxon'
import { toLuxonZone } from '../../calendar/dates/zone'
import type { Event } from '../../payload-types'
import type { RestContext } from '../context'
import { idOf } from '../serialize/common'
import type { Related } from '../serialize/related'
import { eventData, zoneOf } from './event'
import { ImagedEvent } from './image'
import { ruleLines } from './rule'
import { eventTimes } from './times'
import type { SeriesPlan } from './series'
import { vtimezoneOf } from './zones'

/** What a calendar document holds: events in the order they come first, what they embed, and the series among them. */
export type CalendarContents = {
  events: Event[]
  related: Related
  /** Protected events whose content the request unlocked. */
  unlocked: Set<number>
  /** Series by their first event's id. */
  plans: Map<number, SeriesPlan>
}

export const CALENDAR_MEDIA_TYPE = 'text/calendar; charset=utf-8'

/** What a subscribed feed tells the calendar application about itself: its name, its filter in words, how often to read it. */
export type FeedHeader = { name: string; description: string; refreshMinutes: number }

/**
 * The iCalendar document (RFC 5545) of these events, written by ical-generator (docs/api.md §22): a
 * VTIMEZONE for each zone the events are written in, a VEVENT for each single event, and for each series
 * its first event's VEVENT with the rule, once, where its first event in the order appears, followed by
 * its exceptions. Published (METHOD:PUBLISH); a feed also says its name, its filter and how often to
 * read it again.
 */
export function renderCalendar(ctx: RestContext, contents: CalendarContents, feed?: FeedHeader): string {
  const calendar = ical({
    prodId: { company: new URL(ctx.root).host, product: 'cal-events', language: ctx.language.toUpperCase() },
    method: ICalCalendarMethod.PUBLISH,
    timezone: { name: null, generator: vtimezoneOf },
    // ical-generator writes the name and description as they are: TEXT must be escaped here.
    ...(feed ? { name: escape(feed.name, false), description: escape(feed.description, false), ttl: feed.refreshMinutes * 60 } : {}),
  })
  const add = (event: ICalEventData) => calendar.createEvent(new ImagedEvent(event, calendar))
  const byId = new Map(contents.events.map((event) => [event.id, event]))
  const data = (event: Event) => eventData(ctx, event, contents.related, contents.unlocked.has(event.id))
  const written = new Set<number>()
  const writeSeries = (plan: SeriesPlan) => {
    const parent = byId.get(plan.parentId)
    if (!parent || written.has(parent.id)) return
    written.add(parent.id)
    const zone = zoneOf(ctx, parent)
    const master = data(parent)
    add({ ...master, repeating: ruleLines(parent.recurrence ?? '', plan.recurrence, eventTimes(parent, zone), zone, plan.excluded) })
    for (const [id, at] of plan.exceptions) {
      const exception = byId.get(id)
      if (exception) add({ ...data(exception), id: master.id, recurrenceId: DateTime.fromJSDate(at, { zone: toLuxonZone(zone) }) })
    }
  }
  for (const event of contents.events) {
    const own = contents.plans.get(event.id)
    const series = contents.plans.get(idOf(event.parent) ?? 0)
    if (own) writeSeries(own)
    else if (series && !series.apart.has(event.id)) writeSeries(series)
    else add(data(event))
  }
  return calendar.toString()
}
