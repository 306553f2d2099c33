import type { Event } from '../../payload-types'
import { parseDateInput } from '../../calendar/dates/resolve'
import { parseZone } from '../../calendar/dates/zone'
import { parseCostInput } from '../../calendar/cost'
import { expandRecurrence } from '../../calendar/recurrence'
import { limitsOf, parsedRule } from '../../collections/series'
import { authoredData } from '../authored/data'
import type { EventInput, SpelledCost } from '../authored/input'
import { Refusal } from '../refusal'
import type { Writer } from '../writer'
import { resolveLinks, resolveTermLinks } from './links'

/** A rule that yields no occurrence, too many, or does not parse is the 400 naming `recurrence` (docs/api.md §16). */
function checkRecurrence(writer: Writer, text: string, start: Date, zone: string): void {
  const result = expandRecurrence(
    parsedRule(writer.req, text, start, zone),
    writer.now,
    limitsOf(writer.settings),
  )
  if (!result.ok) throw Refusal.invalidParams({ recurrence: result.error })
}

const FLAGS = [
  ['show_map', 'showMap'],
  ['show_map_link', 'showMapLink'],
  ['hide_from_listings', 'hideFromListings'],
  ['sticky', 'sticky'],
  ['featured', 'featured'],
  ['ticketed', 'ticketed'],
  ['all_day', 'allDay'],
  ['recurrence_exception', 'recurrenceException'],
] as const

function spelledCostData(cost: SpelledCost): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  if (cost.values !== undefined) data.cost = cost.values
  if (cost.symbol !== undefined) data.currencySymbol = cost.symbol
  if (cost.code !== undefined) data.currencyCode = cost.code
  if (cost.position !== undefined) data.currencyPosition = cost.position || null
  return data
}

/**
 * Payload data for an event from the fields that were sent: a true partial update (docs/api.md §6.1).
 * Dates are wall clock in the event's zone; an end before the start is refused, not clamped.
 */
export async function eventData(
  writer: Writer,
  input: EventInput,
  stored?: Event,
): Promise<Record<string, unknown>> {
  const operation = stored ? 'update' : 'create'
  const timezone =
    input.timezone !== undefined
      ? input.timezone
        ? parseZone(input.timezone)
        : null
      : stored?.timezone
  const zone = timezone || writer.settings.timezone
  const data = await authoredData(writer, input, zone, operation)
  if (input.title !== undefined) data.title = input.title
  if (input.timezone !== undefined) data.timezone = timezone

  const start =
    input.start_date !== undefined
      ? parseDateInput(input.start_date, zone, writer.now)?.toJSDate()
      : stored && new Date(stored.start)
  const end =
    input.end_date !== undefined
      ? parseDateInput(input.end_date, zone, writer.now)?.toJSDate()
      : stored && new Date(stored.end)
  // Read but not placed: outside the calendar's years (resolve.ts, `parseDateInput`).
  const unplaced = {
    ...(input.start_date !== undefined && !start && { start_date: 'Invalid date.' }),
    ...(input.end_date !== undefined && !end && { end_date: 'Invalid date.' }),
  }
  if (Object.keys(unplaced).length) throw Refusal.invalidParams(unplaced)
  if (start && end && end < start)
    throw Refusal.invalidParams({ end_date: 'The end must not be before the start.' })
  // Unchanged instants are re-sent when the zone changes, so the wall clock follows the new zone.
  if (input.start_date !== undefined || input.timezone !== undefined)
    data.start = start?.toISOString()
  const recurrence = input.recurrence !== undefined ? input.recurrence.trim() : stored?.recurrence
  if (input.recurrence !== undefined) data.recurrence = recurrence
  // The rule is checked when it or the start it runs from changes, before anything is written.
  if (recurrence && start && (input.recurrence !== undefined || data.start !== undefined))
    checkRecurrence(writer, recurrence, start, zone)
  if (input.end_date !== undefined || input.timezone !== undefined) data.end = end?.toISOString()

  for (const [param, field] of FLAGS) if (input[param] !== undefined) data[field] = input[param]
  // Upstream's create stores no map flags unless sent, which its event object then reads as false.
  if (operation === 'create') for (const field of ['showMap', 'showMapLink']) data[field] ??= false
  // An empty website on create is no website, so the event object shows the permalink (upstream
  // stores nothing); on update an empty one is kept, and shows empty.
  if (input.website !== undefined && (input.website !== '' || operation === 'update'))
    data.website = input.website
  if (input.cost !== undefined) {
    const cost = parseCostInput(input.cost ?? '')
    data.cost = cost.values
    data.currencySymbol = cost.symbol || null
    data.currencyPosition = cost.position || null
  }
  if (input.spelled_cost) Object.assign(data, spelledCostData(input.spelled_cost))
  if (input.parent !== undefined) data.parent = input.parent
  const status = (data.status as string | undefined) ?? stored?.status
  if (input.categories !== undefined)
    data.categories = await resolveTermLinks(writer, 'categories', input.categories)
  if (input.tags !== undefined) data.tags = await resolveTermLinks(writer, 'tags', input.tags)
  if (input.venue !== undefined) {
    // An event has one venue: of a list, the first is linked and the rest dropped, as upstream drops them, before any is made.
    const venue = Array.isArray(input.venue) ? input.venue.slice(0, 1) : input.venue
    data.venue = (await resolveLinks(writer, 'venues', 'venue', venue, status))[0] ?? null
  }
  if (input.organizer !== undefined)
    data.organizers = await resolveLinks(writer, 'organizers', 'organizer', input.organizer, status)
  return data
}
