import { z } from 'zod'
import {
  booleanParam,
  idListParam,
  nonEmptyString,
  positiveIntParam,
  stringListParam,
} from '../http/coerce'
import {
  contextParam,
  dateInputParam,
  idParam,
  languageParam,
  numberParam,
  optionalParam,
  pageParams,
  readParams,
  passwordParam,
  phpBooleanParam,
} from './common'

export const eventListParams = z.object({
  i18n_language: languageParam,
  ...pageParams,
  start_date: dateInputParam(
    'Events that start on or after this date (whole day unless strict_dates).',
  ).optional(),
  end_date: dateInputParam(
    'Events that end on or before this date (whole day unless strict_dates).',
  ).optional(),
  starts_before: dateInputParam('Events that start before this date.').optional(),
  starts_after: dateInputParam('Events that start after this date.').optional(),
  ends_before: dateInputParam('Events that end before this date.').optional(),
  ends_after: dateInputParam('Events that end after this date.').optional(),
  strict_dates: optionalParam(
    phpBooleanParam,
    'Use the dates at the given times instead of whole days.',
  ),
  search: optionalParam(nonEmptyString(), 'Words that the title, description or excerpt contain.'),
  categories: optionalParam(
    stringListParam(),
    'Category ids or slugs; events in any of them or of their subcategories.',
  ),
  tags: optionalParam(stringListParam(), 'Tag ids or slugs; events with any of them.'),
  venue: optionalParam(idListParam(), 'Venue ids; events at any of them.'),
  organizer: optionalParam(idListParam(), 'Organizer ids; events by any of them.'),
  featured: optionalParam(
    booleanParam(),
    'Only featured (true) or only not featured (false) events.',
  ),
  status: optionalParam(
    stringListParam(),
    'Statuses; anyone but publishers may ask for publish only.',
  ),
  geoloc: optionalParam(
    booleanParam(),
    'Events whose venue has (true) or lacks (false) coordinates.',
  ),
  geoloc_lat: optionalParam(numberParam(-90, 90), 'Latitude of the centre; geoloc_lng too.'),
  geoloc_lng: optionalParam(numberParam(-180, 180), 'Longitude of the centre; geoloc_lat too.'),
  geoloc_radius: optionalParam(
    numberParam(0, 20_037),
    'Radius in km around the centre; the site setting by default (25).',
  ),
  include: optionalParam(idListParam(), 'Only these event ids; date filters are then ignored.'),
  post_parent: optionalParam(positiveIntParam(), 'Events whose parent event is this one.'),
  ticketed: optionalParam(booleanParam(), 'Events with (true) or without (false) tickets.'),
  hide_subsequent_recurrences: optionalParam(
    booleanParam(),
    'Only the first event of each series within the window (a series: an event and the events whose parent it is).',
  ),
  password: passwordParam,
  context: contextParam,
})
export type EventListParams = z.output<typeof eventListParams>

/** The iCalendar feed takes the list's filters; it has no pages (docs/api.md §22). */
export const eventFeedParams = eventListParams.omit({ page: true, per_page: true })
export type EventFeedParams = z.output<typeof eventFeedParams>

/** Upstream answers `/events/0` with a 404 like any id without an event, not a 400. */
const eventIdParam = z
  .union([z.literal(0), z.literal('0').transform(() => 0), idParam])
  .describe('Numeric id.')

export const eventByIdParams = readParams({ id: eventIdParam })
