/**
 * Recurring events (docs/api.md §16): a rule on an event makes a series whose occurrences are events
 * of their own, listed, read by id and by slug, and filtered like any other; the editing semantics;
 * bad rules refused with nothing written.
 */
import { DateTime } from 'luxon'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique } from '../support/api'
import { changeSettings, restoreSettings } from '../support/fixtures'
import { expectInvalidParam } from '../support/expectations'
import { api, formPairs, payloadDocs } from '../support/writeFixtures'

const ZONE = 'Europe/Paris'
const WALL = 'yyyy-MM-dd HH:mm:ss'
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/** Next week's Tuesday at 19:00 in Paris, the series' first event. */
const FIRST = DateTime.now()
  .setZone(ZONE)
  .plus({ weeks: 1 })
  .set({ weekday: 2, hour: 19, minute: 0, second: 0, millisecond: 0 })

/** Creates a series through the namespace; `weeks` occurrences of a 2-hour event, weekly on Tuesdays. */
async function createSeries(weeks: number, extra: Record<string, unknown> = {}) {
  const reply = await api('/events', {
    method: 'POST',
    token: admin,
    json: {
      title: unique('Series '),
      start_date: FIRST.toFormat(WALL),
      end_date: FIRST.plus({ hours: 2 }).toFormat(WALL),
      timezone: ZONE,
      status: 'publish',
      recurrence: `RRULE:FREQ=WEEKLY;COUNT=${weeks}`,
      ...extra,
    },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

/** Every event of the series, the first included, in order, as the administrator lists them. */
async function seriesOf(parent: { id: number; title: string }, query = '') {
  const window = `start_date=${FIRST.minus({ days: 1 }).toISODate()}&end_date=${FIRST.plus({ years: 2 }).toISODate()}`
  const reply = await api(
    `/events?search=${encodeURIComponent(parent.title)}&${window}&per_page=50&status=publish,trash${query}`,
    { token: admin },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.events as any[]
}

const children = async (id: number) => {
  const reply = await api(
    `/events?post_parent=${id}&per_page=50&start_date=${FIRST.minus({ days: 1 }).toISODate()}&end_date=2040-01-01`,
    { token: admin },
  )
  expect(reply.status).toBe(200)
  return reply.body.events as any[]
}

describe('a weekly series', () => {
  it('is an event per occurrence, at 19:00 Paris time across the DST change, each with its own id, slug and dates', async () => {
    const parent = await createSeries(31)
    expect(parent.recurrence).toBe('RRULE:FREQ=WEEKLY;COUNT=31')
    const events = await seriesOf(parent)
    expect(events).toHaveLength(31)
    expect(events[0].id).toBe(parent.id)
    events.forEach((event, week) => {
      const expected = FIRST.plus({ weeks: week })
      expect(event.start_date).toBe(expected.toFormat(WALL))
      expect(event.end_date).toBe(expected.plus({ hours: 2 }).toFormat(WALL))
      expect(event.utc_start_date).toBe(expected.toUTC().toFormat(WALL))
      expect(event.title).toBe(parent.title)
      // Each occurrence names its series' first event, so a reader knows it for one of a series.
      expect(event.post_parent).toBe(week ? parent.id : 0)
      if (week) {
        expect(event.slug).toBe(`${parent.slug}-${expected.toISODate()}`)
        expect(event.recurrence).toBe('')
      }
    })
    // Paris changes its offset at most 31 weeks apart: the UTC time moves, the wall clock does not.
    expect(new Set(events.map((event) => event.utc_start_date.slice(11))).size).toBe(2)
    expect(new Set(events.map((event) => event.id)).size).toBe(31)

    const third = events[2]
    const byId = await api(`/events/${third.id}`)
    expect(byId.status).toBe(200)
    expect(byId.body.start_date).toBe(FIRST.plus({ weeks: 2 }).toFormat(WALL))
    expect(byId.body.post_parent).toBe(parent.id)
    const bySlug = await api(`/events/by-slug/${third.slug}`)
    expect(bySlug.status).toBe(200)
    expect(bySlug.body.id).toBe(third.id)
    expect((await children(parent.id)).map((event) => event.id)).toEqual(
      events.slice(1).map((event) => event.id),
    )
  })

  it('gives an occurrence whose day’s slug another event has its id after it, so a slug names one event', async () => {
    const slug = unique('collide-').toLowerCase()
    const day = FIRST.plus({ weeks: 1 }).toISODate()
    const blocker = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: unique('Blocker '),
        slug: `${slug}-${day}`,
        start_date: FIRST.toFormat(WALL),
        end_date: FIRST.plus({ hours: 1 }).toFormat(WALL),
      },
    })
    expect(blocker.status, JSON.stringify(blocker.body)).toBe(201)
    const parent = await createSeries(3, { slug })
    const [, second, third] = await seriesOf(parent)
    expect(second.slug).toBe(`${slug}-${day}-${second.id}`)
    expect(third.slug).toBe(`${slug}-${FIRST.plus({ weeks: 2 }).toISODate()}`)
    expect((await api(`/events/by-slug/${second.slug}`)).body.id).toBe(second.id)
    expect((await api(`/events/by-slug/${slug}-${day}`)).body.id).toBe(blocker.body.id)
  })

  it('is listed once with hide_subsequent_recurrences, by its first event in the window', async () => {
    const parent = await createSeries(5)
    expect(await seriesOf(parent, '&hide_subsequent_recurrences=1')).toHaveLength(1)
    const later = `search=${encodeURIComponent(parent.title)}&start_date=${FIRST.plus({ days: 8 }).toISODate()}&end_date=2040-01-01&hide_subsequent_recurrences=true`
    const reply = await api(`/events?${later}`)
    expect(reply.status).toBe(200)
    expect(reply.body.events.map((event: any) => event.start_date)).toEqual([
      FIRST.plus({ weeks: 2 }).toFormat(WALL),
    ])
    expect(reply.body.rest_url).toContain('hide_subsequent_recurrences=1')
    const all = await api(
      `/events?${later.replace('hide_subsequent_recurrences=true', 'hide_subsequent_recurrences=false')}`,
    )
    expect(all.body.events).toHaveLength(3)
  })

  it('is accepted from form and multipart bodies', async () => {
    const title = unique('Form series ')
    const form = await api('/events', {
      method: 'POST',
      token: admin,
      ...formPairs([
        ['title', title],
        ['start_date', FIRST.toFormat(WALL)],
        ['end_date', FIRST.plus({ hours: 1 }).toFormat(WALL)],
        ['timezone', ZONE],
        ['status', 'publish'],
        [
          'recurrence',
          'RRULE:FREQ=DAILY;COUNT=3\nEXDATE:' +
            FIRST.plus({ days: 1 }).toFormat("yyyyMMdd'T'HHmmss"),
        ],
      ]),
    })
    expect(form.status, JSON.stringify(form.body)).toBe(201)
    expect((await children(form.body.id)).map((event) => event.start_date)).toEqual([
      FIRST.plus({ days: 2 }).toFormat(WALL),
    ])

    const body = new FormData()
    for (const [key, value] of Object.entries({
      title: unique('Multipart series '),
      start_date: FIRST.toFormat(WALL),
      end_date: FIRST.plus({ hours: 1 }).toFormat(WALL),
      timezone: ZONE,
      status: 'publish',
      recurrence: 'RRULE:FREQ=MONTHLY;COUNT=2',
    }))
      body.append(key, value)
    const multipart = await api('/events', { method: 'POST', token: admin, body })
    expect(multipart.status, JSON.stringify(multipart.body)).toBe(201)
    expect(multipart.body.recurrence).toBe('RRULE:FREQ=MONTHLY;COUNT=2')
    expect(await children(multipart.body.id)).toHaveLength(1)
  })
})

describe('an all-day series in a zone whose day can start without a midnight', () => {
  // Santiago moves its clocks from 00:00 to 01:00 on 2027-09-05: that day starts at 01:00.
  it.each(['2027-09-03', '2027-09-05'])(
    'from %s: each day from its start to 23:59:59 of that day, the next day at 00:00 again',
    async (first) => {
      const title = unique('Santiago days ')
      const made = await api('/events', {
        method: 'POST',
        token: admin,
        json: {
          title,
          start_date: `${first} 00:00:00`,
          end_date: `${first} 23:59:59`,
          all_day: true,
          timezone: 'America/Santiago',
          status: 'publish',
          recurrence: 'RRULE:FREQ=DAILY;COUNT=4',
        },
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      const reply = await api(
        `/events?search=${encodeURIComponent(title)}&start_date=2027-09-01&end_date=2027-09-30`,
      )
      const days = (reply.body.events as any[]).map((event) => [event.start_date, event.end_date])
      const start = DateTime.fromISO(first)
      expect(days).toEqual(
        [0, 1, 2, 3].map((n) => {
          const day = start.plus({ days: n }).toISODate()
          return [`${day} ${day === '2027-09-05' ? '01' : '00'}:00:00`, `${day} 23:59:59`]
        }),
      )
    },
  )
})

describe('a series at a time the fall-back repeats', () => {
  it('takes the first of the two, as a single event at that time does, whatever the season it is written in', async () => {
    const title = unique('Repeated hour ')
    const made = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title,
        start_date: '2028-10-29 01:30:00',
        end_date: '2028-10-29 02:00:00',
        timezone: 'America/New_York',
        status: 'publish',
        recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3',
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const single = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${title} single`,
        start_date: '2028-11-05 01:30:00',
        end_date: '2028-11-05 01:45:00',
        timezone: 'America/New_York',
        status: 'publish',
      },
    })
    expect(single.status, JSON.stringify(single.body)).toBe(201)
    const reply = await api(
      `/events?search=${encodeURIComponent(title)}&start_date=2028-10-28&end_date=2028-11-30&per_page=10`,
    )
    expect(
      (reply.body.events as any[]).map((event) => [
        event.title,
        event.start_date,
        event.utc_start_date,
      ]),
    ).toEqual([
      [title, '2028-10-29 01:30:00', '2028-10-29 05:30:00'],
      [title, '2028-11-05 01:30:00', '2028-11-05 05:30:00'],
      [`${title} single`, '2028-11-05 01:30:00', '2028-11-05 05:30:00'],
      [title, '2028-11-12 01:30:00', '2028-11-12 06:30:00'],
    ])
  })
})

describe('bad rules: a 400 naming recurrence, nothing written', () => {
  it.each([
    ['a line that does not parse', 'FREQ=WEEKLY'],
    ['a missing FREQ', 'RRULE:COUNT=3'],
    ['COUNT and UNTIL together', 'RRULE:FREQ=WEEKLY;COUNT=3;UNTIL=20990101T000000Z'],
    ['a BY* value out of range', 'RRULE:FREQ=YEARLY;BYMONTH=13'],
    ['a weekday that is none', 'RRULE:FREQ=WEEKLY;BYDAY=XX'],
    ['a rule with no occurrence after the start', 'RRULE:FREQ=WEEKLY;UNTIL=20200101T000000Z'],
    [
      'more than maxOccurrences within the horizon',
      // A daily rule to the horizon (about 720 events) and 20 more at 10:00 on days it already gives.
      'RRULE:FREQ=DAILY\nRDATE:' +
        Array.from({ length: 20 }, (_, day) =>
          FIRST.plus({ days: day + 1 })
            .set({ hour: 10 })
            .toFormat("yyyyMMdd'T'HHmmss"),
        ).join(','),
    ],
    ['a space inside the rule', 'RRULE:FREQ=WEEKLY; COUNT=3'],
    ['a space after a part’s =', 'RRULE:FREQ= WEEKLY;COUNT=3'],
    ['an UNTIL that is not a real date', 'RRULE:FREQ=WEEKLY;UNTIL=20270230'],
    ['an UNTIL past the year 9999 on the zone’s clock', 'RRULE:FREQ=YEARLY;UNTIL=99991231T235959Z'],
    ['a time of day within the rule', 'RRULE:FREQ=DAILY;COUNT=3;BYHOUR=10,11,12'],
    ['a WKST with an ordinal', 'RRULE:FREQ=WEEKLY;COUNT=3;WKST=2MO'],
    ['a frequency finer than daily', 'RRULE:FREQ=HOURLY'],
    ['an EXDATE that does not parse', 'RRULE:FREQ=WEEKLY;COUNT=3\nEXDATE:tomorrow'],
    ['an RDATE that does not parse', 'RRULE:FREQ=WEEKLY;COUNT=3\nRDATE:20261341T100000'],
  ])('%s', async (_, recurrence) => {
    const title = unique('Refused ')
    const reply = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title,
        start_date: FIRST.toFormat(WALL),
        end_date: FIRST.plus({ hours: 1 }).toFormat(WALL),
        timezone: ZONE,
        recurrence,
      },
    })
    expectInvalidParam(reply, 'recurrence')
    expect(
      await payloadDocs('events', `where[title][equals]=${encodeURIComponent(title)}`),
    ).toEqual([])
  })

  it('refuses a space inside the rule on update, not a 500, and leaves the series as it was', async () => {
    const parent = await createSeries(3)
    const reply = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { title: 'changed', recurrence: 'RRULE:FREQ=WEEKLY; COUNT=3' },
    })
    expectInvalidParam(reply, 'recurrence')
    expect((await api(`/events/${parent.id}`, { token: admin })).body.title).toBe(parent.title)
  })

  it('a stored rule the parser refuses (written before it did) leaves the iCalendar file and feed answering', async () => {
    if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through npm test')
    const parent = await createSeries(2)
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await db.connect()
    try {
      // Accepted once: its UNTIL is 10000-01-01 on Paris' clock, which the rule library cannot print back.
      await db.query('update events set recurrence = $1 where id = $2', [
        'RRULE:FREQ=YEARLY;UNTIL=99991231T235959Z',
        parent.id,
      ])
      const file = await call<string>(`${NS}/events/${parent.id}.ics`, { token: admin })
      expect(file.status, String(file.body)).toBe(200)
      // A rule that does not parse leaves its first event single (docs/api.md §22.1).
      expect(file.body).toContain(`UID:${parent.id}@`)
      expect(file.body.slice(file.body.indexOf('BEGIN:VEVENT'))).not.toContain('RRULE')
      const window = `start_date=${FIRST.toISODate()}&end_date=${FIRST.plus({ weeks: 2 }).toISODate()}`
      expect((await call(`${NS}/events.ics?${window}`)).status).toBe(200)
    } finally {
      await db.end()
      await api(`/events/${parent.id}`, { method: 'DELETE', token: admin })
    }
  })

  it('refuses a bad rule on update and leaves the series as it was', async () => {
    const parent = await createSeries(3)
    const reply = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { title: 'changed', recurrence: 'RRULE:FREQ=WEEKLY;BYHOUR=25' },
    })
    expectInvalidParam(reply, 'recurrence')
    const events = await seriesOf(parent)
    expect(events.map((event) => event.title)).toEqual([parent.title, parent.title, parent.title])
  })
})

describe('editing a series', () => {
  it('a write to the first event changes every occurrence but the exceptions', async () => {
    const parent = await createSeries(4)
    const [, second, third] = await seriesOf(parent)
    const edited = await api(`/events/${third.id}`, {
      method: 'POST',
      token: admin,
      json: { title: `${parent.title} special` },
    })
    expect(edited.status).toBe(200)
    const renamed = unique('Renamed ')
    const update = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { title: renamed, featured: true },
    })
    expect(update.status).toBe(200)
    const after = await seriesOf({ ...parent, title: renamed })
    expect(after.map((event) => event.id)).toHaveLength(3)
    expect(after.slice(0, 2).map((event) => event.id)).toEqual([parent.id, second.id])
    expect(after.every((event) => event.featured)).toBe(true)
    const exception = await api(`/events/${third.id}`)
    expect(exception.body).toMatchObject({ title: `${parent.title} special`, featured: false })
  })

  it('a new rule regenerates the occurrences, keeping the ids of the days that stay', async () => {
    const parent = await createSeries(4)
    const before = await seriesOf(parent)
    const reply = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { recurrence: 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3' },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const after = await seriesOf(parent)
    expect(after.map((event) => event.start_date)).toEqual(
      [0, 2, 4].map((weeks) => FIRST.plus({ weeks }).toFormat(WALL)),
    )
    expect(after[1].id).toBe(before[2].id)
    expect((await api(`/events/${before[1].id}`, { token: admin })).status).toBe(404)
  })

  it('an occurrence trashed on its own stays in the trash, and out of the .ics, when the series moves to another time of day', async () => {
    const parent = await createSeries(4)
    const [, , third] = await seriesOf(parent)
    expect((await api(`/events/${third.id}`, { method: 'DELETE', token: admin })).status).toBe(200)
    const later = FIRST.plus({ hours: 1 })
    const moved = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { start_date: later.toFormat(WALL), end_date: later.plus({ hours: 2 }).toFormat(WALL) },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    const events = await seriesOf(parent)
    expect(events.map((event) => [event.id === third.id, event.status])).toEqual([
      [false, 'publish'],
      [false, 'publish'],
      [true, 'trash'],
      [false, 'publish'],
    ])
    const file = await api<string>(`/events/${parent.id}.ics`, { token: admin })
    expect(file.body).toMatch(
      new RegExp(
        `^EXDATE;TZID=${ZONE}:.*${later.plus({ weeks: 2 }).toFormat("yyyyMMdd'T'HHmmss")}`,
        'm',
      ),
    )
  })

  it('trashing an occurrence excludes its date from the rule; trashing the first event trashes the series', async () => {
    const parent = await createSeries(3)
    const [, second] = await seriesOf(parent)
    const trashed = await api(`/events/${second.id}`, { method: 'DELETE', token: admin })
    expect(trashed.status).toBe(200)
    expect(trashed.body.status).toBe('trash')
    const rule = (await api(`/events/${parent.id}`, { token: admin })).body.recurrence
    expect(rule).toBe(
      `RRULE:FREQ=WEEKLY;COUNT=3\nEXDATE:${FIRST.plus({ weeks: 1 }).toFormat("yyyyMMdd'T'HHmmss")}`,
    )
    // A later write to the series does not bring the date back.
    await api(`/events/${parent.id}`, { method: 'POST', token: admin, json: { sticky: true } })
    expect((await seriesOf(parent)).map((event) => event.status)).toEqual([
      'publish',
      'trash',
      'publish',
    ])

    expect((await api(`/events/${parent.id}`, { method: 'DELETE', token: admin })).status).toBe(200)
    const trashedSeries = await seriesOf(parent)
    expect(trashedSeries.map((event) => event.status)).toEqual(['trash', 'trash', 'trash'])

    // Restored from the trash, the series takes its occurrences back; the one trashed on its own stays there.
    expect(
      (
        await api(`/events/${parent.id}`, {
          method: 'POST',
          token: admin,
          json: { status: 'publish' },
        })
      ).status,
    ).toBe(200)
    const restored = await seriesOf(parent)
    expect(restored.map((event) => [event.id, event.status])).toEqual(
      trashedSeries.map((event, index) => [event.id, index === 1 ? 'trash' : 'publish']),
    )
  })

  it('recurrence "" on the first event ends the series: future occurrences go', async () => {
    const parent = await createSeries(3)
    const reply = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { recurrence: '' },
    })
    expect(reply.status).toBe(200)
    expect(reply.body.recurrence).toBe('')
    expect((await seriesOf(parent)).map((event) => event.id)).toEqual([parent.id])
  })

  it('a rule on an occurrence splits the series there', async () => {
    const parent = await createSeries(5)
    const events = await seriesOf(parent)
    const third = events[2]
    const reply = await api(`/events/${third.id}`, {
      method: 'POST',
      token: admin,
      json: { recurrence: 'RRULE:FREQ=DAILY;COUNT=2' },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.recurrence).toBe('RRULE:FREQ=DAILY;COUNT=2')
    const old = (await api(`/events/${parent.id}`, { token: admin })).body
    expect(old.recurrence).toBe(
      `RRULE:FREQ=WEEKLY;UNTIL=${FIRST.plus({ weeks: 2, seconds: -1 }).toFormat("yyyyMMdd'T'HHmmss")}`,
    )
    expect((await children(parent.id)).map((event) => event.id)).toEqual([events[1].id])
    expect((await children(third.id)).map((event) => event.start_date)).toEqual([
      FIRST.plus({ weeks: 2, days: 1 }).toFormat(WALL),
    ])
  })
})

describe('a translated series', () => {
  it("gives every occurrence the first event's text in every language it has", async () => {
    const parent = await createSeries(3)
    for (const [language, title] of [
      ['fr', 'Concert du mardi'],
      ['de', 'Dienstagskonzert'],
    ]) {
      const reply = await api(`/events/${parent.id}?i18n_language=${language}`, {
        method: 'POST',
        token: admin,
        json: { title },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    }
    const [occurrence] = await children(parent.id)
    for (const [language, title] of [
      ['fr', 'Concert du mardi'],
      ['de', 'Dienstagskonzert'],
      ['en', parent.title],
    ]) {
      const reply = await api(`/events/${occurrence.id}?i18n_language=${language}`, {
        token: admin,
      })
      expect(reply.body.title).toBe(title)
    }
  })
})

describe('the horizon', () => {
  it('bounds an endless series, and the jobs queue extends it when the horizon grows', async () => {
    const previous = await changeSettings({ recurrenceHorizonMonths: 2 })
    let parent: any
    try {
      parent = await createSeries(0, { recurrence: 'RRULE:FREQ=WEEKLY' })
      const until = (months: number) => DateTime.now().plus({ months })
      const before = await children(parent.id)
      expect(before.length).toBeGreaterThan(3)
      expect(DateTime.fromSQL(before.at(-1).start_date, { zone: ZONE }) <= until(2)).toBe(true)

      await changeSettings({ recurrenceHorizonMonths: 4 })
      // Anyone but an administrator may not run the queue.
      expect((await call('/api/payload-jobs/run?queue=calendar')).status).toBe(401)
      const run = await call('/api/payload-jobs/run?queue=calendar', { token: admin })
      expect(run.status, JSON.stringify(run.body)).toBe(200)

      const after = await children(parent.id)
      expect(after.slice(0, before.length).map((event) => event.id)).toEqual(
        before.map((event) => event.id),
      )
      const last = DateTime.fromSQL(after.at(-1).start_date, { zone: ZONE })
      expect(last <= until(4)).toBe(true)
      expect(last > until(4).minus({ weeks: 1 })).toBe(true)
    } finally {
      // The endless series goes, and the run the restored setting queues is drained now, not during other files' tests.
      if (parent) await api(`/events/${parent.id}`, { method: 'DELETE', token: admin })
      await restoreSettings(previous)
      await call('/api/payload-jobs/run?queue=calendar', { token: admin })
    }
  })

  it('runs one horizon job at a time across instances: a run waits while another holds the series', async () => {
    if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through npm test')
    const previous = await changeSettings({ recurrenceHorizonMonths: 2 })
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await other.connect()
    let parent: any
    try {
      parent = await createSeries(0, { recurrence: 'RRULE:FREQ=WEEKLY' })
      const before = await children(parent.id)
      await changeSettings({ recurrenceHorizonMonths: 4 })
      // Another instance's run, as the lock it takes.
      await other.query("select pg_advisory_lock(hashtext('extendRecurrenceHorizons'))")
      const run = call('/api/payload-jobs/run?queue=calendar', { token: admin })
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect((await children(parent.id)).length).toBe(before.length)
      await other.query("select pg_advisory_unlock(hashtext('extendRecurrenceHorizons'))")
      expect((await run).status).toBe(200)
      expect((await children(parent.id)).length).toBeGreaterThan(before.length)
    } finally {
      await other.end()
      if (parent) await api(`/events/${parent.id}`, { method: 'DELETE', token: admin })
      await restoreSettings(previous)
      await call('/api/payload-jobs/run?queue=calendar', { token: admin })
    }
  })
})

/**
 * The admin saves through Payload's own REST API, as do scripts using it: a series follows those
 * writes as it follows the namespace's.
 */
describe("a series written through Payload's API, as the admin writes it", () => {
  const payloadEvent = (id: number, data: Record<string, unknown>) =>
    call(`/api/events/${id}?locale=en`, { method: 'PATCH', token: admin, json: data })

  async function createInAdmin(recurrence: string) {
    const title = unique('Admin series ')
    const reply = await call('/api/events?locale=en', {
      method: 'POST',
      token: admin,
      json: {
        title,
        start: FIRST.toUTC().toISO(),
        end: FIRST.plus({ hours: 2 }).toUTC().toISO(),
        timezone: ZONE,
        status: 'publish',
        recurrence,
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return { id: reply.body.doc.id as number, title }
  }

  it('expands on create, follows the first event, and makes an edited occurrence an exception', async () => {
    const parent = await createInAdmin('RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6')
    const occurrences = await children(parent.id)
    // Tuesday first, then Thursday, Tuesday, Thursday...
    const expected = [2, 7, 9, 14, 16].map((days) => FIRST.plus({ days }))
    expect(occurrences.map((event) => event.start_date)).toEqual(
      expected.map((day) => day.toFormat(WALL)),
    )

    expect((await payloadEvent(occurrences[1].id, { title: 'Own title' })).status).toBe(200)
    expect((await payloadEvent(parent.id, { title: `${parent.title} renamed` })).status).toBe(200)
    const after = await children(parent.id)
    expect(after.map((event) => event.title)).toEqual(
      after.map((_, n) => (n === 1 ? 'Own title' : `${parent.title} renamed`)),
    )
    const exception = await call(`/api/events/${occurrences[1].id}?depth=0`, { token: admin })
    expect(exception.body.recurrenceException).toBe(true)
  })

  it('refuses a rule that yields no occurrence with a field error, writing nothing', async () => {
    const title = unique('Too many ')
    const reply = await call('/api/events?locale=en', {
      method: 'POST',
      token: admin,
      json: {
        title,
        start: FIRST.toUTC().toISO(),
        end: FIRST.plus({ hours: 1 }).toUTC().toISO(),
        timezone: ZONE,
        recurrence: 'RRULE:FREQ=DAILY;COUNT=1',
      },
    })
    expect(reply.status).toBe(400)
    expect(JSON.stringify(reply.body)).toContain('recurrence')
    const found = await call(`/api/events?where[title][equals]=${encodeURIComponent(title)}`, {
      token: admin,
    })
    expect(found.body.totalDocs).toBe(0)
  })

  it('refuses a rule with a space or an impossible UNTIL with a field error, not a 500, writing nothing', async () => {
    for (const recurrence of [
      'RRULE:FREQ=WEEKLY; COUNT=3',
      'RRULE:FREQ=WEEKLY;UNTIL=20270230',
      'RRULE:FREQ=YEARLY;UNTIL=99991231T235959Z',
    ]) {
      const title = unique('Refused in admin ')
      const reply = await call('/api/events?locale=en', {
        method: 'POST',
        token: admin,
        json: {
          title,
          start: FIRST.toUTC().toISO(),
          end: FIRST.plus({ hours: 1 }).toUTC().toISO(),
          timezone: ZONE,
          recurrence,
        },
      })
      expect(reply.status, `${recurrence}: ${JSON.stringify(reply.body)}`).toBe(400)
      expect(JSON.stringify(reply.body)).toContain('recurrence')
      const found = await call(`/api/events?where[title][equals]=${encodeURIComponent(title)}`, {
        token: admin,
      })
      expect(found.body.totalDocs).toBe(0)
    }
  })

  it('deleting an occurrence for good excludes its date; deleting the first event deletes its occurrences', async () => {
    const parent = await createInAdmin('RRULE:FREQ=WEEKLY;COUNT=4')
    const occurrences = await children(parent.id)
    expect(occurrences).toHaveLength(3)
    expect(
      (await call(`/api/events/${occurrences[0].id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)
    const first = await call(`/api/events/${parent.id}?depth=0`, { token: admin })
    expect(first.body.recurrence).toBe(
      `RRULE:FREQ=WEEKLY;COUNT=4\nEXDATE:${FIRST.plus({ weeks: 1 }).toFormat("yyyyMMdd'T'HHmmss")}`,
    )
    expect((await children(parent.id)).map((event) => event.id)).toEqual(
      occurrences.slice(1).map((event) => event.id),
    )

    expect(
      (await call(`/api/events/${parent.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)
    for (const occurrence of occurrences)
      expect((await call(`/api/events/${occurrence.id}`, { token: admin })).status).toBe(404)
  })
})
