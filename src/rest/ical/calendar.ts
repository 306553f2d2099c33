import type { Event } from '../../payload-types'
import type { RestContext } from '../context'
import { idOf } from '../serialize/common'
import type { Related } from '../../operations/related'
import { eventData } from './event'
import { ruleLines } from './rule'
import type { SeriesPlan } from './series'
import { durationValue, folded, text } from './syntax'
import { vevent, type VEvent } from './vevent'
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
 * The iCalendar document (RFC 5545) of these events (docs/api.md §22): a VTIMEZONE for each zone the
 * events are written in, a VEVENT for each single event, and for each series its first event's VEVENT
 * with the rule, once, where its first event in the order appears, followed by its exceptions.
 * Published (METHOD:PUBLISH); a feed also says its name, its filter and how often to read it again.
 */
export function renderCalendar(
  ctx: RestContext,
  contents: CalendarContents,
  feed?: FeedHeader,
): string {
  const vevents: VEvent[] = []
  const byId = new Map(contents.events.map((event) => [event.id, event]))
  const data = (event: Event) =>
    eventData(ctx, event, contents.related, contents.unlocked.has(event.id))
  const written = new Set<number>()
  const writeSeries = (plan: SeriesPlan) => {
    const parent = byId.get(plan.parentId)
    if (!parent || written.has(parent.id)) return
    written.add(parent.id)
    const master = data(parent)
    vevents.push({
      ...master,
      rule: ruleLines(parent.recurrence ?? '', plan.recurrence, master.times, plan.excluded),
    })
    for (const [id, at] of plan.exceptions) {
      const exception = byId.get(id)
      if (exception) vevents.push({ ...data(exception), uid: master.uid, recurrenceId: at })
    }
  }
  for (const event of contents.events) {
    const own = contents.plans.get(event.id)
    const series = contents.plans.get(idOf(event.parent) ?? 0)
    if (own) writeSeries(own)
    else if (series && !series.apart.has(event.id)) writeSeries(series)
    else vevents.push(data(event))
  }
  const head = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${new URL(ctx.root).host}//cal-events//${ctx.language.toUpperCase()}`,
    'METHOD:PUBLISH',
  ]
  if (feed)
    head.push(
      `NAME:${text(feed.name)}`,
      `X-WR-CALNAME:${text(feed.name)}`,
      `X-WR-CALDESC:${text(feed.description)}`,
    )
  const zones = [...new Set(vevents.map((vevent) => vevent.times.timezone))].flatMap((tzid) =>
    tzid ? (vtimezoneOf(tzid)?.trim().split(/\r?\n/) ?? []) : [],
  )
  const refresh = feed
    ? [
        `REFRESH-INTERVAL;VALUE=DURATION:${durationValue(feed.refreshMinutes * 60)}`,
        `X-PUBLISHED-TTL:${durationValue(feed.refreshMinutes * 60)}`,
      ]
    : []
  return (
    [...head, ...zones, ...refresh].map(folded).join('') +
    vevents.map(vevent).join('') +
    folded('END:VCALENDAR')
  )
}
