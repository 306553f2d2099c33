/**
 * The records the fuzz aims at, made and removed through Payload's REST as the administrator, and
 * the pools of ids and slugs they fill.
 */
import { randomUUID } from 'node:crypto'
import { RESOURCES } from '../../src/calendar/resources'
import { type FuzzRequest } from './request'
import { emptyPools, type Kind, kindOf, type Pools } from './routes'
import { type Outcome } from './send'

async function adminJson(
  base: string,
  token: string,
  path: string,
  init: RequestInit = {},
): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      Authorization: `JWT ${token}`,
      ...(init.headers as Record<string, string>),
    },
  })
  const text = await response.text()
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : null
}

/** The largest id of each collection the fuzz may write, so that everything after it can be removed. */
export async function highWaterMarks(base: string, token: string): Promise<Record<string, number>> {
  const marks: Record<string, number> = {}
  for (const collection of [...RESOURCES.map((resource) => resource.collection), 'media']) {
    const body = await adminJson(base, token, `/api/${collection}?limit=1&sort=-id&depth=0`)
    marks[collection] = (body.docs?.[0]?.id as number | undefined) ?? 0
  }
  return marks
}

/** Permanently deletes what was created after `marks` (events first: they link to the rest). */
export async function removeSince(
  base: string,
  token: string,
  marks: Record<string, number>,
): Promise<number> {
  let removed = 0
  for (const collection of [
    'events',
    'venues',
    'organizers',
    'event-categories',
    'event-tags',
    'media',
  ]) {
    for (let round = 0; round < 50; round++) {
      const body = await adminJson(
        base,
        token,
        `/api/${collection}?where[id][greater_than]=${marks[collection] ?? 0}&limit=200&depth=0&select[id]=true`,
      )
      const ids = (body.docs as { id: number }[]).map((doc) => doc.id)
      if (!ids.length) break
      await adminJson(
        base,
        token,
        `/api/${collection}?${ids.map((id, n) => `where[id][in][${n}]=${id}`).join('&')}&limit=200`,
        { method: 'DELETE' },
      )
      removed += ids.length
    }
  }
  return removed
}

export type FuzzFixtures = {
  /** Pools the administrator's requests draw from: made by the fuzz, free to change. */
  adminPools: Pools
  /** Pools of everyone else: the administrator's plus the protected and unpublished fixtures. */
  readerPools: Pools
  /** Text found only in protected or unpublished content: it must never reach a non-administrator. */
  secrets: string[]
}

type Created = { id: number; slug?: string }
type Create = (collection: string, data: Record<string, unknown>) => Promise<Created>

const START = '2031-06-01T10:00:00.000Z'
const END = '2031-06-01T12:00:00.000Z'

/** Three published items of every kind, each event linking one of each of the others. */
async function publishedFixtures(create: Create) {
  const published: [Kind, Created][] = []
  for (let n = 0; n < 3; n++) {
    const category = await create('event-categories', {
      name: `fuzz category ${n} ${randomUUID().slice(0, 6)}`,
    })
    const tag = await create('event-tags', { name: `fuzz tag ${n} ${randomUUID().slice(0, 6)}` })
    const venue = await create('venues', {
      name: `fuzz venue ${n} ${randomUUID().slice(0, 6)}`,
      status: 'publish',
      city: 'Lyon',
    })
    const organizer = await create('organizers', {
      name: `fuzz organizer ${n} ${randomUUID().slice(0, 6)}`,
      status: 'publish',
      email: 'o@example.org',
    })
    const event = await create('events', {
      title: `fuzz event ${n} ${randomUUID().slice(0, 6)}`,
      status: 'publish',
      start: START,
      end: END,
      venue: venue.id,
      organizers: [organizer.id],
      categories: [category.id],
      tags: [tag.id],
    })
    published.push(
      ['categories', category],
      ['tags', tag],
      ['venues', venue],
      ['organizers', organizer],
      ['events', event],
    )
  }
  return published
}

/** A draft, a private and a password-protected venue and organizer, their content carrying `secret`. */
async function protectedLinked(create: Create, secret: string, password: string) {
  const hiddenVenue = await create('venues', {
    name: `fuzz hidden venue ${secret}`,
    status: 'draft',
    city: secret,
  })
  const privateVenue = await create('venues', {
    name: `fuzz private venue ${secret}`,
    status: 'private',
    city: secret,
  })
  const lockedVenue = await create('venues', {
    name: 'fuzz locked venue',
    status: 'publish',
    password,
    address: secret,
    city: secret,
    phone: secret,
    website: `https://${secret}.example`,
  })
  const hiddenOrganizer = await create('organizers', {
    name: `fuzz hidden organizer ${secret}`,
    status: 'pending',
    email: `${secret}@example.org`,
  })
  const lockedOrganizer = await create('organizers', {
    name: 'fuzz locked organizer',
    status: 'publish',
    password,
    email: `${secret}@example.org`,
    phone: secret,
  })
  return { hiddenVenue, privateVenue, lockedVenue, hiddenOrganizer, lockedOrganizer }
}

/** A draft, a private, a trashed and a password-protected event, their content carrying `secret`. */
async function protectedEvents(
  create: Create,
  secret: string,
  password: string,
  linked: Awaited<ReturnType<typeof protectedLinked>>,
) {
  const hiddenEvent = await create('events', {
    title: `fuzz draft event ${secret}`,
    status: 'draft',
    start: START,
    end: END,
    website: `https://${secret}.example`,
  })
  const privateEvent = await create('events', {
    title: `fuzz private event ${secret}`,
    status: 'private',
    start: START,
    end: END,
  })
  const trashedEvent = await create('events', {
    title: `fuzz trashed event ${secret}`,
    status: 'trash',
    start: START,
    end: END,
  })
  const lockedEvent = await create('events', {
    title: 'fuzz locked event',
    status: 'publish',
    password,
    start: START,
    end: END,
    website: `https://${secret}.example`,
    cost: [secret],
    venue: linked.lockedVenue.id,
    organizers: [linked.lockedOrganizer.id, linked.hiddenOrganizer.id],
  })
  return [hiddenEvent, privateEvent, trashedEvent, lockedEvent]
}

/**
 * Records for the fuzz to aim at, made through Payload's REST as the administrator: published items of
 * every kind, plus a draft, a private and a password-protected event, venue and organizer whose content
 * carries a secret marker.
 */
export async function makeFixtures(base: string, token: string): Promise<FuzzFixtures> {
  const secret = `zzsecret${randomUUID().replace(/-/g, '').slice(0, 10)}`
  const adminPools = emptyPools()
  const readerPools = emptyPools()
  const add = (pools: Pools[], kind: Kind, doc: Created) => {
    for (const pool of pools) {
      pool[kind].ids.push(doc.id)
      if (doc.slug) pool[kind].slugs.push(doc.slug)
    }
  }
  const create: Create = async (collection, data) =>
    (
      await adminJson(base, token, `/api/${collection}`, {
        method: 'POST',
        body: JSON.stringify(data),
      })
    ).doc as Created
  for (const [kind, doc] of await publishedFixtures(create))
    add([adminPools, readerPools], kind, doc)
  const password = `pw-${randomUUID()}`
  const linked = await protectedLinked(create, secret, password)
  const events = await protectedEvents(create, secret, password, linked)
  // A published event that links the hidden venue and organizers: embeds must not show them.
  const linking = await create('events', {
    title: 'fuzz linking event',
    status: 'publish',
    start: START,
    end: END,
    venue: linked.hiddenVenue.id,
    organizers: [linked.hiddenOrganizer.id, linked.lockedOrganizer.id],
  })
  add([adminPools, readerPools], 'events', linking)
  for (const venue of [linked.hiddenVenue, linked.privateVenue, linked.lockedVenue])
    add([readerPools], 'venues', venue)
  for (const organizer of [linked.hiddenOrganizer, linked.lockedOrganizer])
    add([readerPools], 'organizers', organizer)
  for (const event of events) add([readerPools], 'events', event)
  return { adminPools, readerPools, secrets: [secret, password] }
}

/** Adds what a successful create answered (201 with an object that has an id and a slug) to the pools. */
export function learn(pools: Pools[], request: FuzzRequest, outcome: Outcome): void {
  if (outcome.status !== 201) return
  const kind = kindOf(request.path)
  if (!kind) return
  try {
    const body = JSON.parse(outcome.text) as { id?: unknown; slug?: unknown }
    if (typeof body.id !== 'number') return
    for (const pool of pools) {
      if (!pool[kind].ids.includes(body.id)) pool[kind].ids.push(body.id)
      if (typeof body.slug === 'string' && body.slug && !pool[kind].slugs.includes(body.slug))
        pool[kind].slugs.push(body.slug)
    }
  } catch {
    // not JSON: the checker reports it
  }
}
