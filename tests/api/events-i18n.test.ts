/**
 * Languages of `GET /events` (docs/api.md §1, §10): `i18n_language`, the per-language REST roots
 * (`/fr/api/cal/events/v1/...`), fallback to English, embedded records in the request language.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, call, unique } from '../support/api'
import { expectInvalidParam } from '../support/expectations'
import {
  createCategory,
  createEvent,
  createVenue,
  ns,
  qs,
  splitUrl,
  titles,
  translateEvent,
} from '../support/fixtures'

const FR_ROOT = `${BASE_URL}/fr/api/cal/events/v1`

async function translate(
  collection: string,
  id: number,
  locale: string,
  data: Record<string, unknown>,
) {
  const reply = await call(`/api/${collection}/${id}?locale=${locale}`, {
    method: 'PATCH',
    token: await asAdmin(),
    json: data,
  })
  if (reply.status !== 200)
    throw new Error(
      `translating ${collection} ${id}: ${reply.status} ${JSON.stringify(reply.body)}`,
    )
}

describe('i18n_language and language roots', () => {
  const tag = unique('lang')
  const frWord = unique('port')
  let festival: number
  let categoryId: number
  let venueId: number

  beforeAll(async () => {
    const category = await createCategory({ name: `${tag} Music` })
    categoryId = category.id
    await translate('event-categories', category.id, 'fr', { name: `${tag} Musique` })
    const venue = await createVenue({ name: `${tag} Harbour` })
    venueId = venue.id
    await translate('venues', venue.id, 'fr', { name: `${tag} Port` })
    festival = (
      await createEvent({
        title: `${tag} Harbour Festival`,
        start: '2031-07-14T10:00:00.000Z',
        categories: [category.id],
        venue: venue.id,
      })
    ).id
    await translateEvent(festival, 'fr', { title: `${tag} Fête du ${frWord}` })
    await translateEvent(festival, 'de', { title: `${tag} Hafenfest` })
    await createEvent({ title: `${tag} Night Market`, start: '2031-07-15T10:00:00.000Z' })
  })

  const window = { start_date: '2031-07-01', end_date: '2031-07-31' }

  it('answers in English by default and with i18n_language=en', async () => {
    const expected = [`${tag} Harbour Festival`, `${tag} Night Market`]
    expect(titles(await ns(`/events?${qs({ search: tag, ...window })}`))).toEqual(expected)
    expect(
      titles(await ns(`/events?${qs({ search: tag, ...window, i18n_language: 'en' })}`)),
    ).toEqual(expected)
  })

  it('returns French titles with i18n_language=fr, English where there is no translation', async () => {
    const reply = await ns(`/events?${qs({ search: tag, ...window, i18n_language: 'fr' })}`)
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} Fête du ${frWord}`, `${tag} Night Market`])
    const [event] = reply.body.events
    expect(event.url).toBe(`${BASE_URL}/fr/event/${encodeURIComponent(event.slug)}/`)
  })

  it('embeds categories and venues in the request language', async () => {
    const reply = await ns(`/events?${qs({ include: festival, i18n_language: 'fr' })}`)
    const [event] = reply.body.events
    expect(event.categories.map((term: { name: string }) => term.name)).toEqual([`${tag} Musique`])
    expect(event.categories[0].id).toBe(categoryId)
    expect(event.venue.venue).toBe(`${tag} Port`)
    expect(event.venue.id).toBe(venueId)
    const german = (await ns(`/events?${qs({ include: festival, i18n_language: 'de' })}`)).body
      .events[0]
    expect(german.categories[0].name).toBe(`${tag} Music`)
    expect(german.venue.venue).toBe(`${tag} Harbour`)
  })

  it('searches in the request language', async () => {
    expect(
      titles(await ns(`/events?${qs({ search: frWord, ...window, i18n_language: 'fr' })}`)),
    ).toEqual([`${tag} Fête du ${frWord}`])
    expect(
      titles(
        await ns(`/events?${qs({ search: `${tag} market`, ...window, i18n_language: 'fr' })}`),
      ),
    ).toEqual([`${tag} Night Market`])
  })

  it('serves /fr/api/cal/events/v1/events as ?i18n_language=fr, keeping the /fr/ root in rest_url', async () => {
    const viaParam = await ns(`/events?${qs({ search: tag, ...window, i18n_language: 'fr' })}`)
    const viaRoot = await call(`/fr/api/cal/events/v1/events?${qs({ search: tag, ...window })}`)
    expect(viaRoot.status).toBe(200)
    expect(viaRoot.body.events.map((e: { id: number; title: string }) => [e.id, e.title])).toEqual(
      viaParam.body.events.map((e: { id: number; title: string }) => [e.id, e.title]),
    )
    // The same events, except that every namespace URL keeps the /fr/ root.
    const sameRoot = (events: unknown) =>
      JSON.stringify(events).replaceAll(`${FR_ROOT}/`, `${BASE_URL}/api/cal/events/v1/`)
    expect(JSON.stringify(viaRoot.body.events)).toContain(`${FR_ROOT}/events/`)
    expect(sameRoot(viaRoot.body.events)).toBe(JSON.stringify(viaParam.body.events))
    expect(viaRoot.body.total).toBe(viaParam.body.total)
    expect(splitUrl(viaRoot.body.rest_url).base).toBe(`${FR_ROOT}/events/`)
    const paged = await call(
      `/fr/api/cal/events/v1/events?${qs({ search: tag, ...window, per_page: 1 })}`,
    )
    expect(splitUrl(paged.body.next_rest_url).base).toBe(`${FR_ROOT}/events/`)
  })

  it('lets an explicit i18n_language win over the /fr/ root', async () => {
    const reply = await call(
      `/fr/api/cal/events/v1/events?${qs({ search: tag, ...window, i18n_language: 'de' })}`,
    )
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} Hafenfest`, `${tag} Night Market`])
    expect(splitUrl(reply.body.rest_url).base).toBe(`${FR_ROOT}/events/`)
  })

  it('answers 400 rest_invalid_param for an unknown language', async () => {
    expectInvalidParam(
      await ns(`/events?${qs({ search: tag, i18n_language: 'xx' })}`),
      'i18n_language',
    )
    expectInvalidParam(
      await ns(`/events?${qs({ search: tag, i18n_language: 'FR' })}`),
      'i18n_language',
    )
    expectInvalidParam(
      await call(`/fr/api/cal/events/v1/events?${qs({ search: tag, i18n_language: 'xx' })}`),
      'i18n_language',
    )
    expectInvalidParam(await ns(`/events/${festival}?i18n_language=xx`), 'i18n_language')
  })

  it('reads a single event in the request language', async () => {
    const fr = await ns(`/events/${festival}?i18n_language=fr`)
    expect(fr.body.title).toBe(`${tag} Fête du ${frWord}`)
    const root = await call(`/fr/api/cal/events/v1/events/${festival}`)
    expect(root.body.title).toBe(`${tag} Fête du ${frWord}`)
    expect(root.body.rest_url).toBe(`${FR_ROOT}/events/${festival}`)
    const italian = await ns(`/events/${festival}?i18n_language=it`)
    expect(italian.body.title).toBe(`${tag} Harbour Festival`)
  })
})

describe('a create in another language through any door', () => {
  const graphql = async (query: string) =>
    call('/api/graphql', { method: 'POST', token: await asAdmin(), json: { query } })

  it('gives the item the same values in English, with a slug free there, through Payload’s REST and GraphQL', async () => {
    const word = unique('seul')
    // The French title's slug is an English event's already.
    const english = await createEvent({ title: `${word} concert` })
    const created = await call('/api/events?locale=fr&depth=0', {
      method: 'POST',
      token: await asAdmin(),
      json: {
        title: `${word} concert`,
        status: 'publish',
        start: '2031-08-02T18:00:00.000Z',
        end: '2031-08-02T20:00:00.000Z',
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.doc.id as number
    const inEnglish = (await ns(`/events/${id}`)).body
    const inFrench = (await ns(`/events/${id}?i18n_language=fr`)).body
    expect(inEnglish.title).toBe(`${word} concert`)
    expect(inFrench.title).toBe(`${word} concert`)
    expect(inEnglish.slug).toMatch(new RegExp(`^${word.toLowerCase()}-concert-.+`))
    expect(inEnglish.slug).not.toBe((await ns(`/events/${english.id}`)).body.slug)
    expect(inEnglish.url).toContain(`/event/${inEnglish.slug}/`)

    const venue = await graphql(
      `mutation { createVenue(locale: fr, data: { name: "${word} salle", status: publish }) { id } }`,
    )
    const venueId = venue.body.data?.createVenue?.id
    expect(venueId, JSON.stringify(venue.body)).toBeTruthy()
    expect((await ns(`/venues/${venueId}`)).body).toMatchObject({
      venue: `${word} salle`,
      slug: `${word.toLowerCase()}-salle`,
    })
    const category = await call('/api/event-categories?locale=de', {
      method: 'POST',
      token: await asAdmin(),
      json: { name: `${word} Musik` },
    })
    expect(category.status, JSON.stringify(category.body)).toBe(201)
    expect((await ns(`/categories/${category.body.doc.id}`)).body.name).toBe(`${word} Musik`)
  })
})
