/**
 * An iCalendar file or feed (RFC 5545) as import items (docs/api.md §23.6): Google Calendar's and
 * Outlook's public feeds, upstream's `?ical=1`, this service's `.ics`. Read with ical.js. Each VEVENT's
 * UID is its source id, so a second import updates what the first made. A series (RRULE, RDATE,
 * EXDATE) becomes this service's series, its rule on the wall clock of the event's zone; a
 * RECURRENCE-ID VEVENT becomes its occurrence of that day, an exception, or an EXDATE when cancelled.
 */
import { createHash } from 'node:crypto'
import ICAL from 'ical.js'
import { DateTime } from 'luxon'
import { toLuxonZone } from '../../calendar/dates/zone'
import type {
  EventItem,
  ImportSource,
  ItemRef,
  OrganizerItem,
  SourceItem,
  UnreadableItem,
  VenueItem,
} from '../items'
import { nameKey } from './csv'
import { readCalendar, parseVevent } from './icalFile'
import { ianaZone, zonesOf, type Zones } from './icalZones'

/** The mapping's name of iCalendar files (a feed's is its URL): UIDs are meant to be unique everywhere. */
export const ICAL_FILE_SOURCE = 'ical'

export { IcalFileError } from './icalFile'
export { ianaZone } from './icalZones'

const WALL = 'yyyy-MM-dd HH:mm:ss'

/** A time as the file writes it: its wall clock, and its zone (an IANA id, `UTC`, or null: floating). */
type IcsTime = { wall: string; date: boolean; zone: string | null }

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function wallOf(time: ICAL.Time): string {
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`
}

/**
 * A DATE or DATE-TIME value with its TZID. A TZID that names no known zone is read with the file's own
 * VTIMEZONE, as a UTC time; without one, as floating.
 */
function readTime(value: ICAL.Time, tzid: string | null, zones: Zones): IcsTime {
  if (value.isDate)
    return { wall: `${wallOf(value).slice(0, 10)} 00:00:00`, date: true, zone: null }
  if (value.zone === ICAL.Timezone.utcTimezone)
    return { wall: wallOf(value), date: false, zone: 'UTC' }
  if (!tzid) return { wall: wallOf(value), date: false, zone: zones.floating }
  const zone = ianaZone(tzid)
  if (zone) return { wall: wallOf(value), date: false, zone }
  const refused = zones.refused.get(tzid)
  if (refused) throw new Error(`Its time zone ${tzid} (the file's VTIMEZONE) ${refused}.`)
  const own = zones.byTzid.get(tzid)
  if (!own) return { wall: wallOf(value), date: false, zone: zones.floating }
  const local = value.clone()
  local.zone = own
  return {
    wall: DateTime.fromSeconds(local.toUnixTime(), { zone: 'utc' }).toFormat(WALL),
    date: false,
    zone: 'UTC',
  }
}

function propertyTime(component: ICAL.Component, name: string, zones: Zones): IcsTime | undefined {
  const property = component.getFirstProperty(name)
  const value = property?.getFirstValue()
  if (!property || !(value instanceof ICAL.Time)) return undefined
  // ical.js rolls a day or an hour that does not exist forward (20270230 is 2 March): the value as
  // written must be one, as the namespace and CSV imports ask (docs/api.md §23.6).
  const written = (property.jCal as unknown[])[3]
  if (
    typeof written === 'string' &&
    // A leap second (`T235960Z`, which RFC 5545 allows) is checked as the second before it.
    !DateTime.fromISO(written.replace(/Z$/, '').replace(/:60$/, ':59'), { zone: 'utc' }).isValid
  )
    throw new Error(`${name.toUpperCase()} ${written} is no date or time`)
  return readTime(value, (property.getParameter('tzid') as string | undefined) ?? null, zones)
}

/** A time on another zone's wall clock (floating times stay as they are). */
function inZone(time: IcsTime, zone: string | null): string {
  if (time.date || time.zone === zone || !time.zone || !zone) return time.wall
  return DateTime.fromFormat(time.wall, WALL, { zone: toLuxonZone(time.zone) })
    .setZone(toLuxonZone(zone))
    .toFormat(WALL)
}

const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T')

/** An RDATE or EXDATE value as docs/api.md §16 reads it beside a start in `zone`. */
function ruleDate(time: IcsTime, zone: string | null): string {
  if (time.date) return time.wall.slice(0, 10).replace(/-/g, '')
  if (time.zone === zone || !time.zone) return compact(time.wall)
  return `${compact(inZone(time, 'UTC'))}Z`
}

function ruleDates(
  vevent: ICAL.Component,
  name: 'rdate' | 'exdate',
  zones: Zones,
  zone: string | null,
): string[] {
  const dates: string[] = []
  for (const property of vevent.getAllProperties(name)) {
    const tzid = (property.getParameter('tzid') as string | undefined) ?? null
    for (const value of property.getValues()) {
      const time = value instanceof ICAL.Period ? value.start : value
      if (time instanceof ICAL.Time) dates.push(ruleDate(readTime(time, tzid, zones), zone))
    }
  }
  return dates
}

/** The rule of a series made of its extra dates (RDATE) alone: DTSTART, once. */
export const RDATES_ONLY = 'RRULE:FREQ=DAILY;COUNT=1'

/** The series' rule lines, with the cancelled instances' days excluded. */
function recurrenceOf(
  vevent: ICAL.Component,
  zones: Zones,
  zone: string | null,
  cancelled: string[],
): string | null {
  const rules = vevent
    .getAllProperties('rrule')
    .map((property) => `RRULE:${String(property.getFirstValue())}`)
  const rdates = ruleDates(vevent, 'rdate', zones, zone)
  const exdates = [...ruleDates(vevent, 'exdate', zones, zone), ...cancelled]
  if (!rules.length && !rdates.length) return null
  // A series here needs a rule (docs/api.md §16): with RDATEs alone, one that yields only the first event, the dates adding the rest.
  if (!rules.length) rules.push(RDATES_ONLY)
  return [
    ...rules,
    ...(rdates.length ? [`RDATE:${rdates.join(',')}`] : []),
    ...(exdates.length ? [`EXDATE:${[...new Set(exdates)].join(',')}`] : []),
  ].join('\n')
}

const textOf = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name)
  return typeof value === 'string' && value.trim() ? value.trim() : null
}

/** LOCATION: its first line (ical-generator's, Apple's) or else its first comma-separated part names the venue, the rest is its address. */
function location(vevent: ICAL.Component): { name: string; address: string | null } | null {
  const text = textOf(vevent, 'location')
  if (!text) return null
  const lines = text.split(/\s*\n\s*/)
  const [name, ...rest] = lines.length > 1 ? lines : text.split(/\s*,\s*/)
  return { name: name!.trim() || text, address: rest.join(', ') || null }
}

function organizer(
  vevent: ICAL.Component,
): { key: string; name: string; email: string | null } | null {
  const property = vevent.getFirstProperty('organizer')
  if (!property) return null
  const value = String(property.getFirstValue() ?? '')
  const email = /^mailto:/i.test(value) ? value.replace(/^mailto:/i, '').trim() : null
  const cn = String(property.getParameter('cn') ?? '').trim()
  const name = cn || email
  return name ? { key: `organizer:${(email ?? name).toLowerCase()}`, name, email } : null
}

function categoriesOf(vevent: ICAL.Component): ItemRef[] {
  const names = vevent
    .getAllProperties('categories')
    .flatMap((property) => property.getValues().map((value) => String(value).trim()))
  return [...new Set(names.filter(Boolean))].map((name) => ({
    sourceId: `category:${nameKey(name)}`,
    name,
  }))
}

function imageOf(vevent: ICAL.Component): string | null {
  for (const property of vevent.getAllProperties('attach')) {
    const value = String(property.getFirstValue() ?? '')
    if (
      /^image\//i.test(String(property.getParameter('fmttype') ?? '')) &&
      /^https?:\/\//i.test(value)
    )
      return value
  }
  return null
}

/** `2027-01-05T19:00:00` as ical.js writes a RECURRENCE-ID: part of an exception's source id. */
const recurrenceIdOf = (vevent: ICAL.Component) =>
  String(vevent.getFirstPropertyValue('recurrence-id'))

/**
 * A VEVENT kept as its text and parsed again when its item is read: ical.js's tree of a whole file
 * is ten times the file (26 MB for the bench's 10,000 events), and it was held for the import's
 * length (docs/performance.md, "Memory").
 */
type Vevent = { text: string; label: string; cancelled: boolean }
/** A series' first event (or a single event), with its start's zone. */
type Master = Vevent & { zone: string | null }
/** An instance of a series (RECURRENCE-ID), with the instance's time. */
type Exception = Vevent & { uid: string; rid: IcsTime | undefined; recurrenceId: string }
type Linked<T> = T & { label: string; sourceId: string }

const isCancelled = (vevent: ICAL.Component) =>
  textOf(vevent, 'status')?.toUpperCase() === 'CANCELLED'

/**
 * The VEVENTs, each parsed once and let go: series' first events (or single events) by UID, their
 * exceptions, the UIDs seen twice, and the venues and organizers they name, once each by name.
 */
function sortEvents(vevents: string[], calendar: ICAL.Component, zones: Zones) {
  const masters = new Map<string, Master>()
  const exceptions: Exception[] = []
  const problems: UnreadableItem[] = []
  const venues = new Map<string, Linked<VenueItem>>()
  const organizers = new Map<string, Linked<OrganizerItem>>()
  vevents.forEach((text, index) => {
    let vevent: ICAL.Component
    try {
      vevent = parseVevent(text, calendar)
    } catch (error) {
      // One event ical.js cannot read (`RRULE:FREQ=YEARLY;BYMONTH=13`) is that event's failure, not
      // the file's: under its UID, so a subscription does not take it for an event that left.
      const label = `VEVENT ${index + 1}`
      problems.push(unreadable(label, writtenUid(text) || label, error))
      return
    }
    const summary = textOf(vevent, 'summary')
    const label = `VEVENT ${index + 1}${summary ? ` (${summary})` : ''}`
    try {
      placeAndPerson(vevent, venues, organizers)
      const uid = textOf(vevent, 'uid') ?? anonymousUid(vevent)
      const cancelled = isCancelled(vevent)
      if (vevent.hasProperty('recurrence-id'))
        exceptions.push({
          text,
          label,
          cancelled,
          uid,
          rid: propertyTime(vevent, 'recurrence-id', zones),
          recurrenceId: recurrenceIdOf(vevent),
        })
      else if (masters.has(uid))
        problems.push({
          kind: 'event',
          label,
          sourceId: uid,
          error: `the same UID as ${masters.get(uid)!.label}`,
        })
      else
        masters.set(uid, {
          text,
          label,
          cancelled,
          zone: propertyTime(vevent, 'dtstart', zones)?.zone ?? null,
        })
    } catch (error) {
      problems.push(unreadable(label, textOf(vevent, 'uid') ?? label, error))
    }
  })
  return { masters, exceptions, problems, venues, organizers }
}

/** A series' cancelled exceptions become days its rule leaves out; the others are imported as occurrences. */
function cancelledDays(exceptions: Exception[], masters: Map<string, Master>) {
  const cancelled = new Map<string, string[]>()
  const live = exceptions.filter(({ uid, cancelled: isOff, rid }) => {
    const master = masters.get(uid)
    if (!master || !isOff) return true
    if (rid) cancelled.set(uid, [...(cancelled.get(uid) ?? []), ruleDate(rid, master.zone)])
    return false
  })
  return { cancelled, live }
}

/** The venue and organizer `vevent` names, unless one of the same name is there already. */
function placeAndPerson(
  vevent: ICAL.Component,
  venues: Map<string, Linked<VenueItem>>,
  organizers: Map<string, Linked<OrganizerItem>>,
): void {
  const place = location(vevent)
  if (place && !venues.has(nameKey(place.name))) {
    const geo = vevent.getFirstPropertyValue('geo') as number[] | null
    venues.set(nameKey(place.name), {
      label: place.name,
      sourceId: `location:${nameKey(place.name)}`,
      name: place.name,
      newAddress: place.address,
      ...(Array.isArray(geo) && geo.length === 2
        ? { geoLat: Number(geo[0]), geoLng: Number(geo[1]) }
        : {}),
    })
  }
  const host = organizer(vevent)
  if (host && !organizers.has(host.key))
    organizers.set(host.key, {
      label: host.name,
      sourceId: host.key,
      name: host.name,
      ...(host.email ? { email: host.email } : {}),
    })
}

/** An event with a value ical.js cannot read (a DTSTART of `garbage`): the file's others are imported. */
/** An event's UID read from its text, for an event whose text ical.js cannot read. */
const UID_LINE = /^UID(?:;[^:\r\n]*)?:(.*)$/im

/** The UID as written, its folded lines joined (Outlook's and Exchange's are long, always folded). */
const writtenUid = (text: string) => UID_LINE.exec(text.replace(/\r?\n[ \t]/g, ''))?.[1]?.trim()

const unreadable = (label: string, sourceId: string, error: unknown): UnreadableItem => ({
  kind: 'event',
  label,
  sourceId,
  error: error instanceof Error ? error.message : String(error),
})

/** `item()`, or the event as unreadable with ical.js's reason. */
function readOrReport(label: string, sourceId: string, item: () => SourceItem | UnreadableItem) {
  try {
    return item()
  } catch (error) {
    return unreadable(label, sourceId, error)
  }
}

/** An exception that is not cancelled: an occurrence of its series on the day its RECURRENCE-ID names. */
function exceptionItem(
  { uid, label, rid, recurrenceId }: Exception,
  vevent: ICAL.Component,
  master: Master | undefined,
  zones: Zones,
  urlIsPermalink: boolean,
): SourceItem | UnreadableItem {
  const sourceId = `${uid}#${recurrenceId}`
  if (!rid) return { kind: 'event', label, sourceId, error: 'RECURRENCE-ID is not a date' }
  return eventItem(
    vevent,
    sourceId,
    label,
    zones,
    urlIsPermalink,
    master ? { parent: uid, day: inZone(rid, master.zone).slice(0, 10) } : {},
  )
}

/** An iCalendar document as an import source named `name` (its URL, or `ical` for files). */
export function icalSource(text: string, name: string): ImportSource {
  const { calendar, vevents } = readCalendar(text)
  // This service's feeds and upstream's write each event's page on their site as its URL: not a website of its own.
  const urlIsPermalink = /\/\/cal-events\/\/|- ECPv/i.test(textOf(calendar, 'prodid') ?? '')
  const zones = zonesOf(calendar)
  const { masters, exceptions, problems, venues, organizers } = sortEvents(vevents, calendar, zones)
  const { cancelled, live } = cancelledDays(exceptions, masters)
  const events = [...masters].filter(([, master]) => !master.cancelled)
  return {
    name,
    // Events are their UIDs: many share a title and a time (Exchange's "Busy"). Places, people and categories are their names.
    matchByName: ['category', 'tag', 'venue', 'organizer'],
    totals: {
      venue: venues.size,
      organizer: organizers.size,
      event: events.length + live.length + problems.length,
    },
    complete: () => true,
    async *items() {
      for (const { label, sourceId, ...data } of venues.values())
        yield { kind: 'venue', label, sourceId, data }
      for (const { label, sourceId, ...data } of organizers.values())
        yield { kind: 'organizer', label, sourceId, data }
      for (const [uid, { text, label }] of events)
        yield readOrReport(label, uid, () =>
          eventItem(parseVevent(text, calendar), uid, label, zones, urlIsPermalink, {
            cancelled: cancelled.get(uid) ?? [],
          }),
        )
      for (const exception of live)
        yield readOrReport(exception.label, `${exception.uid}#${exception.recurrenceId}`, () =>
          exceptionItem(
            exception,
            parseVevent(exception.text, calendar),
            masters.get(exception.uid),
            zones,
            urlIsPermalink,
          ),
        )
      yield* problems
    },
  }
}

/** A VEVENT without a UID (RFC 5545 requires one): known by its summary and start, as a CSV row without an Event UID. */
function anonymousUid(vevent: ICAL.Component): string {
  const key = `${textOf(vevent, 'summary') ?? ''}\n${String(vevent.getFirstPropertyValue('dtstart'))}`
  return `no-uid:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`
}

function eventItem(
  vevent: ICAL.Component,
  sourceId: string,
  label: string,
  zones: Zones,
  urlIsPermalink: boolean,
  series: { cancelled?: string[]; parent?: string; day?: string },
): SourceItem | UnreadableItem {
  const title = textOf(vevent, 'summary')
  if (!title) return { kind: 'event', label, sourceId, error: 'no SUMMARY (title)' }
  const start = propertyTime(vevent, 'dtstart', zones)
  if (!start) return { kind: 'event', label, sourceId, error: 'no DTSTART, or not a date' }
  const zone = start.date ? zones.floating : start.zone
  let end = propertyTime(vevent, 'dtend', zones)
  const duration = vevent.getFirstPropertyValue('duration')
  if (!end && duration instanceof ICAL.Duration) {
    const local = DateTime.fromFormat(start.wall, WALL, { zone: 'utc' }).plus({
      seconds: duration.toSeconds(),
    })
    end = { ...start, wall: local.toFormat(WALL) }
  }
  let startWall = start.wall
  let endWall: string
  if (start.date) {
    // DTEND is exclusive: an all-day event ends at 23:59:59 of the day before it.
    const last = end
      ? DateTime.fromFormat(end.wall, WALL, { zone: 'utc' }).minus({ days: 1 })
      : DateTime.fromFormat(start.wall, WALL, { zone: 'utc' })
    endWall = `${[last.toFormat('yyyy-MM-dd'), start.wall.slice(0, 10)].sort()[1]} 23:59:59`
  } else {
    startWall = start.wall
    endWall = end ? inZone(end, zone) : startWall
    if (endWall < startWall) endWall = startWall
  }
  const place = location(vevent)
  const host = organizer(vevent)
  const html = vevent
    .getAllProperties('x-alt-desc')
    .find((property) => /html/i.test(String(property.getParameter('fmttype') ?? '')))
  const classification = textOf(vevent, 'class')?.toUpperCase()
  const data: EventItem = {
    title,
    description:
      (html && String(html.getFirstValue() ?? '').trim()) || textOf(vevent, 'description'),
    start: startWall,
    end: endWall,
    allDay: start.date,
    timezone: zone,
    venue: place ? { sourceId: `location:${nameKey(place.name)}`, name: place.name } : null,
    // iCalendar holds one organizer and no image: without them an event keeps its own.
    organizers: host ? [{ sourceId: host.key, name: host.name }] : undefined,
    categories: categoriesOf(vevent),
    website: urlIsPermalink ? undefined : textOf(vevent, 'url'),
    image: imageOf(vevent) ?? undefined,
    ...(classification === 'PRIVATE' || classification === 'CONFIDENTIAL'
      ? { status: 'private' as const }
      : {}),
  }
  if (series.parent)
    data.occurrenceOf = { parent: { sourceId: series.parent, name: '' }, day: series.day! }
  else data.recurrence = recurrenceOf(vevent, zones, zone, series.cancelled ?? [])
  return { kind: 'event', label, sourceId, data }
}
