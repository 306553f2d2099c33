/**
 * Read side of organizers (docs/api.md §3.1, §4.4, §7, §11; docs/api.md §2, §3, §4.5, §9, §10):
 * `GET /organizers` with its filters and pagination, `GET /organizers/{id}` and `/organizers/by-slug/{slug}`,
 * the organizer object key for key, access, password protection, languages, and organizers embedded in events.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BASE_URL,
  call,
  type Reply,
  ROOT,
  type TestUser,
  unique,
  uploadImage,
  userWithRole,
} from '../support/api'
import { expectError, expectInvalidParam } from '../support/expectations'
import { describeLinkedPaging } from '../support/linkedPaging'
import {
  createEvent,
  createOrganizer,
  dayAt,
  ns,
  qs,
  richText,
  splitUrl,
} from '../support/fixtures'
import {
  adminId,
  expectTotals,
  expectWithheld,
  globalId,
  patchDoc,
  readDoc,
  wallClock,
} from '../support/linkedFixtures'

const LIST = `${ROOT}/organizers/`
const FR_ROOT = `${BASE_URL}/fr/api/cal/events/v1`

const ORGANIZER_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'organizer',
  'description',
  'excerpt',
  'slug',
  'image',
  'phone',
  'website',
  'email',
  'json_ld',
  'global_id',
  'global_id_lineage',
]

const MINIMAL_KEYS = [
  'id',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'organizer',
  'slug',
  'json_ld',
  'global_id',
  'global_id_lineage',
]

const PROTECTED_KEYS = ['description', 'excerpt', 'image', 'phone', 'website', 'email']

function list(
  params: Record<string, string | number | boolean | undefined>,
  token?: string,
): Promise<Reply> {
  return ns(`/organizers?${qs(params)}`, token)
}

function names(reply: Reply): string[] {
  expect(reply.status, JSON.stringify(reply.body).slice(0, 500)).toBe(200)
  return (reply.body.organizers as { organizer: string }[]).map((organizer) => organizer.organizer)
}

let editor: TestUser
let author: TestUser
let subscriber: TestUser

beforeAll(async () => {
  ;[editor, author, subscriber] = await Promise.all([
    userWithRole('editor'),
    userWithRole('author'),
    userWithRole('subscriber'),
  ])
})

describeLinkedPaging({ key: 'organizers', list, names })

describe('GET /organizers: search', () => {
  const tag = unique('osearch')
  const byName = `${tag} Jazz Society`
  const byEmail = unique('Mailer')
  const byPhone = unique('Caller')
  const byWebsite = unique('Surfer')
  const phone = `+33 ${Math.floor(100_000_000 + Math.random() * 900_000_000)}`
  const other = unique('Other')

  beforeAll(async () => {
    await createOrganizer({ name: byName, email: 'info@jazz.example' })
    await createOrganizer({ name: byEmail, email: `${tag}@mail.example` })
    await createOrganizer({ name: byPhone, phone })
    await createOrganizer({ name: byWebsite, website: `https://${tag}.example` })
    await createOrganizer({ name: other, email: 'other@mail.example', phone: '+1 000' })
  })

  it('matches the name, the email, the phone and the website, case-insensitively', async () => {
    expect(names(await list({ search: tag }))).toEqual([byWebsite, byEmail, byName])
    expect(names(await list({ search: tag.toUpperCase() }))).toEqual([byWebsite, byEmail, byName])
    expect(names(await list({ search: `${tag}@mail` }))).toEqual([byEmail])
    expect(names(await list({ search: phone }))).toEqual([byPhone])
  })

  it('matches the description and the excerpt', async () => {
    const inDescription = unique('desc')
    const inExcerpt = unique('exc')
    const described = await createOrganizer({
      name: unique('Described'),
      description: richText(`We love ${inDescription} music`),
    })
    const excerpted = await createOrganizer({
      name: unique('Excerpted'),
      excerpt: `Tea and ${inExcerpt} included`,
    })
    expect(
      (await list({ search: inDescription })).body.organizers.map((o: { id: number }) => o.id),
    ).toEqual([described.id])
    expect(
      (await list({ search: inExcerpt })).body.organizers.map((o: { id: number }) => o.id),
    ).toEqual([excerpted.id])
  })

  it('takes % and _ in the search literally, not as wildcards', async () => {
    const word = unique('lit')
    await createOrganizer({ name: `${word}ab crew` })
    await createOrganizer({ name: `${word}_b crew` })
    expect.soft(names(await list({ search: `${word}_b` }))).toEqual([`${word}_b crew`])
    expect.soft(names(await list({ search: `${word}%b` }))).toEqual([])
  })

  it('answers total 0 when nothing matches (not the unfiltered total)', async () => {
    const reply = await list({ search: `${tag}-no-such-organizer` })
    expect(names(reply)).toEqual([])
    expectTotals(reply, 0, 0)
  })
})

describe('GET /organizers: event, has_events, only_with_upcoming', () => {
  const tag = unique('oevents')
  const lonely = unique('olonely')
  let older: number
  let newer: number
  let upcomingEvent: number
  let eventWithoutOrganizer: number

  beforeAll(async () => {
    older = (await createOrganizer({ name: `${tag} Upcoming older` })).id
    newer = (await createOrganizer({ name: `${tag} Upcoming newer` })).id
    const past = (await createOrganizer({ name: `${tag} Past` })).id
    await createOrganizer({ name: `${tag} None` })
    const draftOnly = (await createOrganizer({ name: `${lonely} Draft only` })).id
    upcomingEvent = (
      await createEvent({ title: unique('ev'), start: dayAt(5, 10), organizers: [older, newer] })
    ).id
    await createEvent({ title: unique('ev'), start: dayAt(-10, 10), organizers: [past] })
    await createEvent({
      title: unique('ev'),
      start: dayAt(5, 10),
      organizers: [draftOnly],
      status: 'draft',
    })
    eventWithoutOrganizer = (await createEvent({ title: unique('ev'), start: dayAt(5, 10) })).id
  })

  it('lists the organizers of an event with event=<id>, newest first, echoing event in rest_url', async () => {
    const reply = await list({ event: upcomingEvent })
    expect(reply.body.organizers.map((organizer: { id: number }) => organizer.id)).toEqual([
      newer,
      older,
    ])
    expectTotals(reply, 2, 1)
    expect(splitUrl(reply.body.rest_url)).toEqual({
      base: LIST,
      params: { page: '1', per_page: '10', event: String(upcomingEvent), status: 'publish' },
    })
    const empty = await list({ event: eventWithoutOrganizer })
    expect(names(empty)).toEqual([])
    expectTotals(empty, 0, 0)
  })

  it('refuses an event id that is not an event, or not an id, with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list({ event: 2_000_000_000 }), 'event')
    expectInvalidParam(await list({ event: 'abc' }), 'event')
  })

  it('keeps organizers with events (not drafts) for has_events=1 and the others for has_events=0', async () => {
    const withEvents = await list({ search: tag, has_events: 1 })
    expect(names(withEvents)).toEqual([
      `${tag} Past`,
      `${tag} Upcoming newer`,
      `${tag} Upcoming older`,
    ])
    expect(splitUrl(withEvents.body.rest_url).params.has_events).toBe('1')
    expect(names(await list({ search: lonely, has_events: 1 }))).toEqual([])
    const without = await list({ search: tag, has_events: 0 })
    expect(names(without)).toEqual([`${tag} None`])
    expect(splitUrl(without.body.rest_url).params.has_events).toBe('0')
  })

  it('keeps only organizers of upcoming events for only_with_upcoming=1 (a past event’s organizer is left out)', async () => {
    const reply = await list({ search: tag, only_with_upcoming: 1 })
    expect(names(reply)).toEqual([`${tag} Upcoming newer`, `${tag} Upcoming older`])
    expectTotals(reply, 2, 1)
    // Upstream leaves it out of rest_url.
    expect(splitUrl(reply.body.rest_url).params).not.toHaveProperty('only_with_upcoming')
    expect(names(await list({ search: lonely, only_with_upcoming: 1 }))).toEqual([])
  })

  it('counts an upcoming private event for editors, not for anonymous readers; a pending one for no one', async () => {
    const word = unique('oprivate')
    const editor = await userWithRole('editor')
    const organizer = async (name: string) =>
      (await createOrganizer({ name: `${word} ${name}` })).id
    await createEvent({
      title: unique('ev'),
      start: dayAt(5, 10),
      organizers: [await organizer('private')],
      status: 'private',
    })
    await createEvent({
      title: unique('ev'),
      start: dayAt(5, 10),
      organizers: [await organizer('pending')],
      status: 'pending',
    })
    expect(names(await list({ search: word, only_with_upcoming: 1 }))).toEqual([])
    expect(names(await list({ search: word, only_with_upcoming: 1 }, editor.token))).toEqual([
      `${word} private`,
    ])
  })
})

describe('GET /organizers: status', () => {
  const tag = unique('ostatus')

  beforeAll(async () => {
    for (const status of ['publish', 'draft', 'pending', 'trash'])
      await createOrganizer({ name: `${tag} ${status}`, status })
  })

  it('shows anonymous readers published organizers only', async () => {
    expect(names(await list({ search: tag }))).toEqual([`${tag} publish`])
    expect(names(await list({ search: tag, status: 'publish' }))).toEqual([`${tag} publish`])
  })

  it('answers 400 rest_invalid_param when a reader asks for anything but publish', async () => {
    expectInvalidParam(await list({ search: tag, status: 'draft' }), 'status')
    expectInvalidParam(await list({ search: tag, status: 'publish,draft' }), 'status')
    expectInvalidParam(await list({ search: tag, status: 'draft' }, subscriber.token), 'status')
  })

  it('shows editors every status but trash by default, and drafts when they ask', async () => {
    expect(names(await list({ search: tag }, editor.token)).sort()).toEqual([
      `${tag} draft`,
      `${tag} pending`,
      `${tag} publish`,
    ])
    expect(names(await list({ search: tag, status: 'draft' }, editor.token))).toEqual([
      `${tag} draft`,
    ])
    expectInvalidParam(await list({ search: tag, status: 'foo' }, editor.token), 'status')
  })
})

describe('GET /organizers: languages', () => {
  const tag = unique('olang')
  const frWord = unique('amis')
  let translated: { id: number; slug: string }

  beforeAll(async () => {
    translated = (await createOrganizer({ name: `${tag} Friends of Jazz` })) as never
    await createOrganizer({ name: `${tag} Choir` })
    await patchDoc(
      'organizers',
      translated.id,
      { name: `${tag} ${frWord} du Jazz`, slug: `${frWord}-du-jazz` },
      'fr',
    )
  })

  it('answers French names, falling back to English, with i18n_language=fr and on the /fr/ root', async () => {
    expect(names(await list({ search: tag }))).toEqual([`${tag} Choir`, `${tag} Friends of Jazz`])
    expect(names(await list({ search: tag, i18n_language: 'fr' }))).toEqual([
      `${tag} Choir`,
      `${tag} ${frWord} du Jazz`,
    ])
    const viaRoot = await call(`/fr/api/cal/events/v1/organizers?${qs({ search: tag })}`)
    expect(names(viaRoot)).toEqual([`${tag} Choir`, `${tag} ${frWord} du Jazz`])
    expect(splitUrl(viaRoot.body.rest_url).base).toBe(`${FR_ROOT}/organizers/`)
    expect(names(await list({ search: frWord, i18n_language: 'fr' }))).toEqual([
      `${tag} ${frWord} du Jazz`,
    ])
  })

  it('reads one organizer in French, by id and by slug', async () => {
    const byId = await ns(`/organizers/${translated.id}?i18n_language=fr`)
    expect(byId.body).toMatchObject({
      organizer: `${tag} ${frWord} du Jazz`,
      slug: `${frWord}-du-jazz`,
      url: `${BASE_URL}/fr/organizer/${frWord}-du-jazz/`,
    })
    expect((await ns(`/organizers/by-slug/${frWord}-du-jazz?i18n_language=fr`)).body).toEqual(
      byId.body,
    )
    expect((await ns(`/organizers/${translated.id}`)).body.organizer).toBe(`${tag} Friends of Jazz`)
  })
})

describe('GET /organizers/{id} and /organizers/by-slug/{slug}: the organizer object', () => {
  const tag = unique('osingle')
  let full: { id: number; slug: string }
  let media: { id: number; filename: string; url: string }

  beforeAll(async () => {
    media = await uploadImage(`${tag}-logo`)
    full = (await createOrganizer({
      name: `${tag} Jazz Society`,
      publishedAt: '2024-05-06T07:08:09.000Z',
      description: richText('We play jazz'),
      excerpt: 'Jazz people',
      image: media.id,
      phone: '+1 415 555 0199',
      website: 'https://jazz.example',
      email: 'hello@jazz.example',
    })) as never
  })

  it('has upstream’s keys in upstream’s order, with exact values', async () => {
    const reply = await ns(`/organizers/${full.id}`)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body)).toEqual(ORGANIZER_KEYS)
    const doc = await readDoc('organizers', full.id)
    expect(reply.body).toEqual({
      id: full.id,
      author: String(await adminId()),
      status: 'publish',
      date: '2024-05-06 07:08:09',
      date_utc: '2024-05-06 07:08:09',
      modified: wallClock(doc.updatedAt),
      modified_utc: wallClock(doc.updatedAt),
      url: `${BASE_URL}/organizer/${full.slug}/`,
      organizer: `${tag} Jazz Society`,
      description: '<p>We play jazz</p>',
      excerpt: '<p>Jazz people</p>',
      slug: full.slug,
      image: expect.objectContaining({
        id: media.id,
        url: new URL(media.url, BASE_URL).toString(),
        extension: 'png',
        width: 4,
        height: 3,
      }),
      phone: '+1 415 555 0199',
      website: 'https://jazz.example',
      email: 'hello@jazz.example',
      json_ld: expect.objectContaining({
        name: `${tag} Jazz Society`,
        description: 'Jazz people',
        // Upstream's organizer json_ld links the organizer's website, not its page.
        url: 'https://jazz.example',
        telephone: '+1 415 555 0199',
        email: 'hello@jazz.example',
        sameAs: 'https://jazz.example',
      }),
      global_id: globalId(full.id),
      global_id_lineage: [globalId(full.id)],
    })
    expect(full.slug).toBe(`${tag}-jazz-society`)
  })

  it('answers the same object by slug', async () => {
    const bySlug = await ns(`/organizers/by-slug/${full.slug}`)
    expect(bySlug.status).toBe(200)
    expect(bySlug.body).toEqual((await ns(`/organizers/${full.id}`)).body)
  })

  it('omits every empty field', async () => {
    const minimal = await createOrganizer({ name: `${tag} Bare` })
    const reply = await ns(`/organizers/${minimal.id}`)
    expect(Object.keys(reply.body)).toEqual(MINIMAL_KEYS)
    expect(reply.body.organizer).toBe(`${tag} Bare`)
  })

  it('has no json_ld in lists, and is otherwise the same object', async () => {
    const { json_ld: _, ...withoutJsonLd } = (await ns(`/organizers/${full.id}`)).body
    const reply = await list({ search: `${tag} Jazz` })
    expect(reply.body.organizers).toHaveLength(1)
    expect(Object.keys(reply.body.organizers[0])).toEqual(
      ORGANIZER_KEYS.filter((key) => key !== 'json_ld'),
    )
    expect(reply.body.organizers[0]).toEqual(withoutJsonLd)
  })

  it('answers 400 rest_invalid_param for an unknown id or slug', async () => {
    expectInvalidParam(await ns('/organizers/2000000000'), 'id')
    expectInvalidParam(await ns(`/organizers/by-slug/${unique('no-such-organizer')}`), 'slug')
  })
})

describe('GET /organizers/{id}: access', () => {
  const tag = unique('oaccess')
  let draft: { id: number; slug: string }
  let trashed: { id: number; slug: string }

  beforeAll(async () => {
    draft = (await createOrganizer({
      name: `${tag} Draft`,
      status: 'draft',
      email: 'draft@secret.example',
    })) as never
    trashed = (await createOrganizer({ name: `${tag} Trashed`, status: 'trash' })) as never
  })

  it('answers 403 organizer-not-accessible to anonymous readers and subscribers for drafts and trashed organizers', async () => {
    const reply = await ns(`/organizers/${draft.id}`)
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 403,
      body: {
        code: 'organizer-not-accessible',
        message: 'The requested organizer is not accessible',
        data: { status: 403 },
      },
    })
    expectError(await ns(`/organizers/by-slug/${draft.slug}`), 403, 'organizer-not-accessible')
    expectError(await ns(`/organizers/${trashed.id}`), 403, 'organizer-not-accessible')
    expectError(
      await ns(`/organizers/${draft.id}`, subscriber.token),
      403,
      'organizer-not-accessible',
    )
    expectError(await ns(`/organizers/${draft.id}`, author.token), 403, 'organizer-not-accessible')
  })

  it('answers 200 to an editor, trashed organizers included', async () => {
    const reply = await ns(`/organizers/${draft.id}`, editor.token)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      id: draft.id,
      status: 'draft',
      email: 'draft@secret.example',
    })
    expect((await ns(`/organizers/by-slug/${draft.slug}`, editor.token)).body).toEqual(reply.body)
    const trash = await ns(`/organizers/${trashed.id}`, editor.token)
    expect(trash.status).toBe(200)
    expect(trash.body.status).toBe('trash')
  })
})

describe('GET /organizers/{id}: password protection', () => {
  const tag = unique('olocked')
  const password = 'let-me-in'
  const secrets = [
    'Secret society',
    'Hush excerpt',
    '+44 20 7946 0000',
    'https://hush.example',
    'hush@hush.example',
  ]
  let locked: { id: number; slug: string }

  beforeAll(async () => {
    locked = (await createOrganizer({
      name: `${tag} Hush Club`,
      password,
      description: richText('Secret society'),
      excerpt: 'Hush excerpt',
      phone: '+44 20 7946 0000',
      website: 'https://hush.example',
      email: 'hush@hush.example',
    })) as never
  })

  it('answers 200 with the name kept and the content withheld', async () => {
    for (const path of [
      `/organizers/${locked.id}`,
      `/organizers/by-slug/${locked.slug}`,
      `/organizers/${locked.id}?password=nope`,
    ]) {
      const reply = await ns(path)
      expect({ path, status: reply.status }).toEqual({ path, status: 200 })
      expect(reply.body).toMatchObject({
        id: locked.id,
        organizer: `${tag} Hush Club`,
        slug: locked.slug,
      })
      expectWithheld(reply.body, PROTECTED_KEYS, secrets)
    }
  })

  it('unlocks with the right password, or context=edit for a user who may edit it', async () => {
    const open = await ns(`/organizers/${locked.id}?${qs({ password })}`)
    expect(open.body).toMatchObject({
      organizer: `${tag} Hush Club`,
      description: '<p>Secret society</p>',
      excerpt: '<p>Hush excerpt</p>',
      phone: '+44 20 7946 0000',
      website: 'https://hush.example',
      email: 'hush@hush.example',
    })
    expect(open.body).not.toHaveProperty('password')
    expect((await ns(`/organizers/${locked.id}?context=edit`, editor.token)).body).toEqual(
      open.body,
    )
    expectWithheld(
      (await ns(`/organizers/${locked.id}`, editor.token)).body,
      PROTECTED_KEYS,
      secrets,
    )
    expectWithheld(
      (await ns(`/organizers/${locked.id}?context=edit`, author.token)).body,
      PROTECTED_KEYS,
      secrets,
    )
  })

  it('withholds the content in lists and in events too', async () => {
    const reply = await list({ search: tag })
    expect(names(reply)).toEqual([`${tag} Hush Club`])
    expectWithheld(reply.body.organizers[0], PROTECTED_KEYS, secrets)
    const event = await createEvent({ title: unique('with-hush'), organizers: [locked.id] })
    const single = await ns(`/events/${event.id}`)
    expect(single.body.organizer).toHaveLength(1)
    expect(single.body.organizer[0]).toMatchObject({ id: locked.id, organizer: `${tag} Hush Club` })
    expectWithheld(single.body.organizer[0], PROTECTED_KEYS, secrets)
  })
})

describe('organizers embedded in events', () => {
  const tag = unique('oembed')
  let first: { id: number }
  let second: { id: number }
  let event: { id: number }

  beforeAll(async () => {
    first = await createOrganizer({
      name: `${tag} Zeta Crew`,
      email: 'zeta@crew.example',
      phone: '+1 222',
    })
    second = await createOrganizer({
      name: `${tag} Alpha Crew`,
      website: 'https://alpha.example',
      excerpt: 'Alpha people',
    })
    event = await createEvent({ title: `${tag} Festival`, organizers: [first.id, second.id] })
  })

  it('is the list of organizer objects in linked order, each with its json_ld on the single event read (docs/api.md §3.1)', async () => {
    const reply = await ns(`/events/${event.id}`)
    expect(reply.status).toBe(200)
    const expected = [
      (await ns(`/organizers/${first.id}`)).body,
      (await ns(`/organizers/${second.id}`)).body,
    ]
    expect(
      reply.body.organizer.map((organizer: Record<string, unknown>) => Object.keys(organizer)),
    ).toEqual(expected.map((organizer) => Object.keys(organizer)))
    expect(reply.body.organizer).toEqual(expected)
  })

  it('is the same objects without json_ld in event lists', async () => {
    const expected = [
      (await ns(`/organizers/${first.id}`)).body,
      (await ns(`/organizers/${second.id}`)).body,
    ].map(({ json_ld: _, ...rest }) => rest)
    const reply = await ns(`/events?include=${event.id}`)
    expect(reply.body.events[0].organizer).toEqual(expected)
  })
})
