/**
 * Date filters of `GET /events` (docs/api.md §4.2; docs/api.md §4.2): `start_date`/`end_date` as whole days
 * unless `strict_dates`, the relative bounds that drop the default window, `strtotime`-style phrases,
 * Unix timestamps, and 400s naming the parameter. The site zone is UTC (the default).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT, unique } from '../support/api'
import { expectInvalidParam } from '../support/expectations'
import {
  changeSettings,
  createEvent,
  dayAt,
  ns,
  qs,
  restoreSettings,
  splitUrl,
  titles,
  ymd,
} from '../support/fixtures'

const LIST = `${ROOT}/events/`

async function event(title: string, start: string, end: string) {
  return createEvent({ title, start, end })
}

function list(params: Record<string, string | number>) {
  return ns(`/events?${qs(params)}`)
}

/**
 * The titles the list answers, asserting that both ways of serving it agree: the hand-written page
 * query (anonymous readers) and the local API (taken when a password is given to try).
 */
async function listedEither(params: Record<string, string | number>): Promise<string[]> {
  const fast = await list(params)
  const local = await list({ ...params, password: 'no-such-password' })
  expect(fast.status).toBe(200)
  expect(titles(local)).toEqual(titles(fast))
  return titles(fast)
}

const ts = (iso: string) => Math.floor(new Date(iso).getTime() / 1000)

describe('start_date and end_date', () => {
  const tag = unique('day')
  beforeAll(async () => {
    await event(`${tag} afternoon`, '2031-01-01T16:00:00Z', '2031-01-01T16:30:00Z')
    await event(`${tag} evening`, '2031-01-01T20:00:00Z', '2031-01-01T20:30:00Z')
  })

  it('takes whole days by default (15:00–18:00 finds both the 16:00 and the 20:00 event)', async () => {
    const reply = await list({
      search: tag,
      start_date: '2031-01-01 15:00:00',
      end_date: '2031-01-01 18:00:00',
    })
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} afternoon`, `${tag} evening`])
    expect(splitUrl(reply.body.rest_url)).toEqual({
      base: LIST,
      params: {
        page: '1',
        per_page: '10',
        start_date: '2031-01-01 00:00:00',
        end_date: '2031-01-01 23:59:59',
        search: tag,
        status: 'publish',
      },
    })
  })

  it.each(['1', 'true', 'yes', 'on'])(
    'uses the bounds at their times with strict_dates=%s',
    async (strict) => {
      const reply = await list({
        search: tag,
        start_date: '2031-01-01 15:00:00',
        end_date: '2031-01-01 18:00:00',
        strict_dates: strict,
      })
      expect(reply.status).toBe(200)
      expect(titles(reply)).toEqual([`${tag} afternoon`])
      const { params } = splitUrl(reply.body.rest_url)
      expect(params.start_date).toBe('2031-01-01 15:00:00')
      expect(params.end_date).toBe('2031-01-01 18:00:00')
    },
  )

  it.each(['0', 'false', 'no'])('stays inclusive with strict_dates=%s', async (strict) => {
    const reply = await list({
      search: tag,
      start_date: '2031-01-01 15:00:00',
      end_date: '2031-01-01 18:00:00',
      strict_dates: strict,
    })
    expect(titles(reply)).toEqual([`${tag} afternoon`, `${tag} evening`])
  })

  it('keeps only events that start on/after start_date and end on/before end_date', async () => {
    const own = unique('span')
    await event(`${own} inside`, '2031-02-01T10:00:00Z', '2031-02-01T11:00:00Z')
    await event(`${own} started the day before`, '2031-01-31T10:00:00Z', '2031-02-01T12:00:00Z')
    await event(`${own} ends the day after`, '2031-02-01T22:00:00Z', '2031-02-02T01:00:00Z')
    const reply = await list({ search: own, start_date: '2031-02-01', end_date: '2031-02-01' })
    expect(titles(reply)).toEqual([`${own} inside`])
    const wider = await list({ search: own, start_date: '2031-01-31', end_date: '2031-02-02' })
    expect(titles(wider)).toEqual([
      `${own} started the day before`,
      `${own} inside`,
      `${own} ends the day after`,
    ])
  })

  it('accepts Unix timestamps, snapped to whole days unless strict', async () => {
    const inclusive = await list({
      search: tag,
      start_date: ts('2031-01-01T15:00:00Z'),
      end_date: ts('2031-01-01T18:00:00Z'),
    })
    expect(inclusive.status).toBe(200)
    expect(titles(inclusive)).toEqual([`${tag} afternoon`, `${tag} evening`])
    expect(splitUrl(inclusive.body.rest_url).params).toMatchObject({
      start_date: '2031-01-01 00:00:00',
      end_date: '2031-01-01 23:59:59',
    })

    const strict = await list({
      search: tag,
      start_date: ts('2031-01-01T15:00:00Z'),
      end_date: ts('2031-01-01T18:00:00Z'),
      strict_dates: 1,
    })
    expect(titles(strict)).toEqual([`${tag} afternoon`])
    expect(splitUrl(strict.body.rest_url).params).toMatchObject({
      start_date: '2031-01-01 15:00:00',
      end_date: '2031-01-01 18:00:00',
    })
  })

  it('accepts ISO 8601 bounds', async () => {
    const reply = await list({
      search: tag,
      start_date: '2031-01-01T19:00:00Z',
      end_date: '2031-01-01T21:00:00Z',
      strict_dates: 1,
    })
    expect(titles(reply)).toEqual([`${tag} evening`])
  })
})

describe('bounds compare instants, days counted on the site clock (upstream as measured live)', () => {
  const tag = unique('instant')
  beforeAll(async () => {
    // 23:00 on 24 Nov in New York is 04:00Z on 25 Nov; 07:30 on 25 Nov in Tokyo is 22:30Z on 24 Nov.
    await createEvent({
      title: `${tag} new york`,
      start: '2032-11-25T04:00:00Z',
      timezone: 'America/New_York',
    })
    await createEvent({
      title: `${tag} tokyo`,
      start: '2032-11-24T22:30:00Z',
      end: '2032-11-24T23:30:00Z',
      timezone: 'Asia/Tokyo',
    })
    // 20:00 in Paris is 19:00Z.
    await createEvent({
      title: `${tag} paris`,
      start: '2032-12-04T19:00:00Z',
      timezone: 'Europe/Paris',
    })
  })

  it('whole days: a New York evening falling on the next UTC day is listed, a Tokyo morning of that day is not', async () => {
    expect(
      await listedEither({ search: tag, start_date: '2032-11-25', end_date: '2032-11-25' }),
    ).toEqual([`${tag} new york`])
    expect(
      await listedEither({ search: tag, start_date: '2032-11-24', end_date: '2032-11-24' }),
    ).toEqual([`${tag} tokyo`])
  })

  it('strict times: a 20:00 Paris event (19:00Z) starts before 20:00 and after 19:00', async () => {
    const end_date = '2032-12-31'
    expect(
      await listedEither({
        search: tag,
        strict_dates: 1,
        start_date: '2032-12-04 20:00:00',
        end_date,
      }),
    ).toEqual([])
    expect(
      await listedEither({
        search: tag,
        strict_dates: 1,
        start_date: '2032-12-04 19:00:00',
        end_date,
      }),
    ).toEqual([`${tag} paris`])
  })

  it('relative bounds too', async () => {
    expect(
      await listedEither({
        search: tag,
        starts_after: '2032-11-25 03:00:00',
        starts_before: '2032-11-25 05:00:00',
        strict_dates: 1,
      }),
    ).toEqual([`${tag} new york`])
    // The Tokyo event ends at 23:30Z, 08:30 on the 25th on its own clock.
    expect(
      await listedEither({ search: tag, ends_before: '2032-11-25 00:30:00', strict_dates: 1 }),
    ).toEqual([`${tag} tokyo`])
  })

  it('reads whole days in the site zone when it is not UTC', async () => {
    const previous = await changeSettings({ timezone: 'America/New_York' })
    try {
      // 25 Nov in New York runs from 05:00Z on the 25th to 04:59:59Z on the 26th: the New York
      // event (04:00Z–05:00Z) started before it; 24 Nov ends before that event does.
      const reply = await list({ search: tag, start_date: '2032-11-25', end_date: '2032-11-25' })
      expect(titles(reply)).toEqual([])
      expect(splitUrl(reply.body.rest_url).params).toMatchObject({
        start_date: '2032-11-25 00:00:00',
        end_date: '2032-11-25 23:59:59',
      })
      expect(
        await listedEither({ search: tag, start_date: '2032-11-24', end_date: '2032-11-24' }),
      ).toEqual([`${tag} tokyo`])
      expect(
        await listedEither({ search: tag, start_date: '2032-11-24', end_date: '2032-11-25' }),
      ).toEqual([`${tag} new york`, `${tag} tokyo`])
      // Strict times are on the site clock too: 23:00 New York is the New York event's own 04:00Z start.
      expect(
        await listedEither({
          search: tag,
          start_date: '2032-11-24 23:00:00',
          end_date: '2032-11-25 00:00:00',
          strict_dates: 1,
        }),
      ).toEqual([`${tag} new york`])
      expect(
        await listedEither({
          search: tag,
          start_date: '2032-11-24 23:00:01',
          strict_dates: 1,
          end_date: '2032-11-25 00:00:00',
        }),
      ).toEqual([])
    } finally {
      await restoreSettings(previous)
    }
  })

  it('the default window starts at the start of yesterday as an instant, whatever the event zone', async () => {
    const own = unique('edge')
    // 01:00Z yesterday is 17:00 the day before in Los Angeles; 23:00Z two days ago is 08:00 yesterday in Tokyo.
    await createEvent({
      title: `${own} los angeles`,
      start: dayAt(-1, 1),
      timezone: 'America/Los_Angeles',
    })
    await createEvent({ title: `${own} tokyo`, start: dayAt(-2, 23), timezone: 'Asia/Tokyo' })
    expect(await listedEither({ search: own })).toEqual([`${own} los angeles`])
  })
})

describe('relative bounds', () => {
  const tag = unique('rel')
  beforeAll(async () => {
    await event(`${tag} multi-day`, '2031-12-30T10:00:00Z', '2032-01-01T12:00:00Z')
    await event(`${tag} ended on the 31st`, '2031-12-31T10:00:00Z', '2031-12-31T11:00:00Z')
    await event(`${tag} new year`, '2032-01-01T10:00:00Z', '2032-01-01T11:00:00Z')
    await event(`${tag} second`, '2032-01-02T10:00:00Z', '2032-01-02T11:00:00Z')
    await event(`${tag} third`, '2032-01-03T10:00:00Z', '2032-01-03T11:00:00Z')
  })

  it('drop the default window: ends_after + starts_before find events overlapping the span, far in the future', async () => {
    const reply = await list({ search: tag, ends_after: '2031-12-31', starts_before: '2032-01-02' })
    expect(reply.status).toBe(200)
    // Upstream snaps every relative bound to 23:59:59 of its day, starts_before included (docs/api.md §4.2).
    expect(titles(reply)).toEqual([`${tag} multi-day`, `${tag} new year`, `${tag} second`])
    expect(splitUrl(reply.body.rest_url)).toEqual({
      base: LIST,
      params: {
        page: '1',
        per_page: '10',
        starts_before: '2032-01-02 23:59:59',
        ends_after: '2031-12-31 23:59:59',
        search: tag,
        status: 'publish',
      },
    })
  })

  it('use the given times with strict_dates (strict inequalities)', async () => {
    const reply = await list({
      search: tag,
      ends_after: '2031-12-31 11:00:00',
      starts_before: '2032-01-02 10:00:00',
      strict_dates: 1,
    })
    expect(titles(reply)).toEqual([`${tag} multi-day`, `${tag} new year`])
  })

  it('starts_after alone has no upper bound; ends_before alone has no lower bound', async () => {
    expect(titles(await list({ search: tag, starts_after: '2032-01-02' }))).toEqual([
      `${tag} third`,
    ])
    expect(titles(await list({ search: tag, ends_before: '2031-12-31' }))).toEqual([
      `${tag} ended on the 31st`,
    ])
    expect(
      titles(await list({ search: tag, starts_after: '2031-12-31 10:00:00', strict_dates: 1 })),
    ).toEqual([`${tag} new year`, `${tag} second`, `${tag} third`])
    expect(
      titles(await list({ search: tag, ends_before: '2031-12-31 11:00:00', strict_dates: 1 })),
    ).toEqual([])
  })

  it('combine with an explicit start_date or end_date', async () => {
    expect(
      titles(await list({ search: tag, starts_before: '2032-01-02', start_date: '2032-01-01' })),
    ).toEqual([`${tag} new year`, `${tag} second`])
    expect(
      titles(await list({ search: tag, ends_after: '2031-12-31', end_date: '2032-01-01' })),
    ).toEqual([`${tag} multi-day`, `${tag} new year`])
  })

  it('reach past events that the default window hides', async () => {
    const own = unique('past')
    await createEvent({ title: `${own} three days ago`, start: dayAt(-3, 12) })
    expect(titles(await list({ search: own }))).toEqual([])
    expect(titles(await list({ search: own, starts_after: ymd(-5) }))).toEqual([
      `${own} three days ago`,
    ])
    expect(titles(await list({ search: own, ends_before: ymd(-1) }))).toEqual([
      `${own} three days ago`,
    ])
  })
})

describe('relative phrases', () => {
  const tag = unique('phrase')
  beforeAll(async () => {
    await createEvent({ title: `${tag} today`, start: dayAt(0, 12) })
    await createEvent({ title: `${tag} tomorrow`, start: dayAt(1, 12) })
    await createEvent({ title: `${tag} in 4 days`, start: dayAt(4, 12) })
    await createEvent({ title: `${tag} in 7 days`, start: dayAt(7, 12) })
  })

  it('start_date=tomorrow starts the window at the beginning of tomorrow', async () => {
    const reply = await list({ search: tag, start_date: 'tomorrow' })
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} tomorrow`, `${tag} in 4 days`, `${tag} in 7 days`])
    expect(splitUrl(reply.body.rest_url).params.start_date).toBe(`${ymd(1)} 00:00:00`)
  })

  it('end_date=+5 days ends the window at the end of that day and keeps the default start', async () => {
    const reply = await list({ search: tag, end_date: '+5 days' })
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} today`, `${tag} tomorrow`, `${tag} in 4 days`])
    expect(splitUrl(reply.body.rest_url).params).toMatchObject({
      start_date: `${ymd(-1)} 00:00:00`,
      end_date: `${ymd(5)} 23:59:59`,
    })
  })

  it('combines days and times (tomorrow 9am, +5 days 11am), strictly when asked', async () => {
    expect(
      titles(await list({ search: tag, start_date: 'tomorrow 9am', end_date: '+5 days 11am' })),
    ).toEqual([`${tag} tomorrow`, `${tag} in 4 days`])
    const strict = await list({ search: tag, start_date: 'tomorrow 13:00', strict_dates: 1 })
    expect(titles(strict)).toEqual([`${tag} in 4 days`, `${tag} in 7 days`])
    expect(splitUrl(strict.body.rest_url).params.start_date).toBe(`${ymd(1)} 13:00:00`)
  })

  it('accepts a relative phrase as a relative bound', async () => {
    expect(
      titles(await list({ search: tag, starts_after: 'yesterday', starts_before: '+4 days' })),
    ).toEqual([`${tag} today`, `${tag} tomorrow`, `${tag} in 4 days`])
  })
})

describe('dates at the ends of four-digit years', () => {
  it("hold a window past them at the calendar's ends, whatever the bound", async () => {
    const title = unique('ends')
    await event(title, '2031-03-01 10:00:00', '2031-03-01 11:00:00')
    for (const params of [
      { start_date: '0000-01-01', end_date: '9999-12-31' } as Record<string, string | number>,
      { starts_after: '-200000 years', ends_before: '+199999 years' },
      { start_date: 1, end_date: 8639999827200 },
    ])
      expect(await listedEither({ search: title, ...params }), JSON.stringify(params)).toEqual([
        title,
      ])
  })

  it.each([
    ['end_date', '+300000 years'],
    ['start_date', '8639999999999'],
  ])('answer 400 naming %s for %j, which no zone could place', async (param, value) => {
    expectInvalidParam(await list({ search: unique('far'), [param]: value }), param)
  })
})

describe('invalid dates', () => {
  it.each([
    ['start_date', 'foo'],
    ['start_date', '2031-13-45'],
    ['start_date', '2031-02-30'],
    ['start_date', ''],
    ['end_date', 'next blursday'],
    ['end_date', '25:00'],
    ['starts_before', 'soon'],
    ['starts_after', '2031-01-01 99:00'],
    ['ends_before', 'tomorrowish'],
    ['ends_after', '+5 eons'],
  ])('answers 400 rest_invalid_param naming %s for %j', async (param, value) => {
    const reply = await list({ search: unique('bad'), [param]: value })
    expectInvalidParam(reply, param)
  })
})
