/**
 * Door parity (docs/api.md §2.1): each rule of the calendar is checked through every door that reaches
 * the data — the namespace, Payload's REST, GraphQL, the admin's actions (duplicate, bulk edit, bulk
 * delete), imports, the CSV and iCalendar exports, the change feed and webhooks — for every resource of
 * the registry it concerns. A rule lists every door of `DOORS` (a type error otherwise), each with a
 * check or the reason that door cannot break it, so a door or a rule added later cannot skip the matrix.
 * Read checks carry a positive control: the administrator sees, through the same door, what the other
 * readers must not, so a query that answers nothing cannot pass for a door that holds.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EVENTS,
  RESOURCES,
  type AuthoredResource,
  type Resource,
  type TermResource,
} from '../../src/calendar/resources'
import { asAdmin, call, NS, unique, usersOfEveryRole, type Reply } from '../support/api'
import { testDatabase } from '../support/database'
import {
  countThrough,
  DOORS,
  graphql,
  graphqlNames,
  nameField,
  readsThrough,
  textOf,
  type Door,
} from '../support/doors'
import { dayAt, ymd } from '../support/fixtures'
import { importThroughQueue } from '../support/imports'

type Check<R extends Resource> = (resource: R) => Promise<string[]>
type Decision<R extends Resource> = Check<R> | { notApplicable: string }
type Rule<R extends Resource = AuthoredResource> = {
  name: string
  resources: (resource: Resource) => resource is R
  doors: Record<Door, Decision<R>>
}

const authored = (resource: Resource): resource is AuthoredResource =>
  resource.family === 'authored'
const terms = (resource: Resource): resource is TermResource => resource.family === 'term'
const eventsOnly = (resource: Resource): resource is AuthoredResource => resource.key === 'events'
const linkedOnly = (resource: Resource): resource is AuthoredResource =>
  resource.key === 'venues' || resource.key === 'organizers'

const db = testDatabase()
let admin: string
let users: Awaited<ReturnType<typeof usersOfEveryRole>>
let feedStart: string
const PASSWORD = `pw-${unique()}`
const BAD_URL = 'javascript:alert(document.domain)'

type Fixture = {
  draft: { id: number; marker: string }
  locked: { id: number; name: string; secret: string }
  linking: { draft: number; locked: number }
}
const fixtures = {} as Record<AuthoredResource['key'], Fixture>
const readers = (): { name: string; token?: string }[] => [
  { name: 'anonymous' },
  { name: 'subscriber', token: users.subscriber.token },
  { name: 'contributor', token: users.contributor.token },
]

async function createAs(token: string, resource: AuthoredResource, data: Record<string, unknown>) {
  const base = resource.key === 'events' ? { start: dayAt(3, 12), end: dayAt(3, 14) } : {}
  const reply = await call(`/api/${resource.collection}`, {
    method: 'POST',
    token,
    json: { ...base, ...data },
  })
  return reply
}

async function created(
  resource: AuthoredResource,
  data: Record<string, unknown>,
): Promise<{ id: number; [key: string]: unknown }> {
  const reply = await createAs(admin, resource, data)
  if (reply.status !== 201)
    throw new Error(`creating ${resource.key}: ${reply.status} ${textOf(reply)}`)
  return reply.body.doc
}

/** A published event that embeds `item` (a venue or organizer), or nothing for events. */
async function linkingEvent(resource: AuthoredResource, id: number): Promise<number> {
  if (resource.key === 'events') return id
  const link = resource.key === 'venues' ? { venue: id } : { organizers: [id] }
  return (await created(EVENTS, { title: unique('parityLinking'), status: 'publish', ...link })).id
}

/** A published venue or organizer and a published event that links it. */
async function linkedPair(resource: AuthoredResource) {
  const item = (await created(resource, { name: unique('parityTrashed'), status: 'publish' })).id
  return { item, event: await linkingEvent(resource, item) }
}

/** Why the event still links the trashed item, if it does (and that it was trashed at all). */
async function stillLinked(resource: AuthoredResource, item: number, event: number, via: string) {
  const wrong: string[] = []
  if ((await stored(resource, item)).status !== 'trash') wrong.push(`${via} did not trash it`)
  const links = await stored(EVENTS, event)
  const linked = resource.key === 'venues' ? links.venue === item : links.organizers.includes(item)
  if (linked) wrong.push(`${via}: event ${event} still links it`)
  return wrong
}

/** A published venue or organizer, put in the trash through the namespace. */
async function trashedItem(resource: AuthoredResource, name = unique('parityGone')) {
  const item = (await created(resource, { name, status: 'publish' })).id
  const trash = await call(`${NS}/${resource.key}/${item}`, { method: 'DELETE', token: admin })
  if (trash.status !== 200) throw new Error(`trashing ${item}: ${trash.status} ${textOf(trash)}`)
  return item
}

/** Payload's fields of an event linking `item` alone. */
const linkFields = (resource: AuthoredResource, item: number) =>
  resource.key === 'venues' ? { venue: item } : { organizers: [item] }

/**
 * An event linking an item that went to the trash without unlinking it, as before that unlinked it
 * (its status set in SQL, without the collection's hooks).
 */
async function legacyPair(resource: AuthoredResource) {
  const pair = await linkedPair(resource)
  await db.query(`update ${resource.collection} set status = 'trash' where id = $1`, [pair.item])
  return pair
}

/** Why the event links the trashed item, if it does. */
async function linksTrashed(resource: AuthoredResource, item: number, event: number, via: string) {
  const links = await stored(EVENTS, event)
  const linked = resource.key === 'venues' ? links.venue === item : links.organizers.includes(item)
  return linked ? [`${via}: event ${event} links ${resource.singular} ${item} in the trash`] : []
}

/** Why a namespace write was not refused as one naming an unknown id is: 400 naming the parameter. */
function refusedInNamespace(reply: Reply, param: string, via: string): string[] {
  const params = reply.body?.data?.params as Record<string, string> | undefined
  return reply.status === 400 && reply.body?.code === 'rest_invalid_param' && params?.[param]
    ? []
    : [`namespace ${via} ${param}: ${reply.status} ${textOf(reply).slice(0, 300)}`]
}

/** Why a Payload write was not refused with a 400 naming the link's field. */
function refusedInPayload(reply: Reply, resource: AuthoredResource, via: string): string[] {
  const field = resource.key === 'venues' ? 'venue' : 'organizers'
  const paths = (reply.body?.errors ?? []).flatMap(
    (error: { data?: { errors?: { path?: string }[] } }) =>
      (error.data?.errors ?? []).map((entry) => entry.path),
  )
  return reply.status === 400 && paths.includes(field)
    ? []
    : [`${via} ${field}: ${reply.status} ${textOf(reply).slice(0, 300)}`]
}

const stored = async (resource: AuthoredResource, id: number) =>
  (await call(`/api/${resource.collection}/${id}?depth=0`, { token: admin })).body

/** Anonymous exports a website reads: the iCalendar feed and the CSV file of the events. */
async function exports(token?: string): Promise<string> {
  const [ics, csv] = await Promise.all([
    call(`${NS}/events.ics?per_page=1000`, { token }),
    call(`${NS}/events.csv`, { token }),
  ])
  return `${textOf(ics)}\n${textOf(csv)}`
}

type Change = { type: string; id: number; action: string }
async function changesSince(since: string, token?: string): Promise<Change[]> {
  const changes: Change[] = []
  for (let cursor = since; ;) {
    const reply = await call(`${NS}/changes?since=${cursor}&per_page=500`, { token })
    expect(reply.status, textOf(reply)).toBe(200)
    changes.push(...reply.body.changes)
    cursor = reply.body.next_cursor
    if (!reply.body.has_more) return changes
  }
}

// A webhook receiver registered before the fixtures exist, so every fixture's change is delivered to it.
const received: Change[] = []
const receiver = http.createServer((request, response) => {
  let raw = ''
  request.on('data', (chunk) => (raw += chunk))
  request.on('end', () => {
    received.push(JSON.parse(raw))
    response.writeHead(200).end()
  })
})
let webhookId: number

beforeAll(async () => {
  admin = await asAdmin()
  users = await usersOfEveryRole()
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/parity`
  webhookId = (
    await call('/api/webhooks', {
      method: 'POST',
      token: admin,
      json: { url, secret: 'parity-secret-16' },
    })
  ).body.doc.id
  feedStart = (await call(`${NS}/changes?since=now`)).body.next_cursor
  for (const resource of RESOURCES as readonly Resource[]) {
    if (!authored(resource)) continue
    const marker = unique('parityDraft')
    const secret = unique('paritysecret')
    const field = nameField(resource)
    const draft = await created(resource, { [field]: marker, status: 'draft' })
    const lockedName = unique('parityLocked')
    const locked = await created(resource, {
      [field]: lockedName,
      status: 'publish',
      password: PASSWORD,
      website: `https://${secret}.example.org/`,
    })
    fixtures[resource.key] = {
      draft: { id: draft.id, marker },
      locked: { id: locked.id, name: lockedName, secret },
      linking: {
        draft: await linkingEvent(resource, draft.id),
        locked: await linkingEvent(resource, locked.id),
      },
    }
  }
})

afterAll(async () => {
  await call(`/api/webhooks/${webhookId}`, { method: 'DELETE', token: admin })
  await new Promise((resolve) => receiver.close(resolve))
})

/** Violations: each reply, as the reader got it, that contains one of `secrets`. */
function leaks(
  door: string,
  reader: string,
  replies: { status: number; body: unknown; headers: Headers }[],
  secrets: string[],
): string[] {
  return replies.flatMap((reply, n) =>
    secrets
      .filter((secret) => textOf(reply).includes(secret))
      .map((secret) => `${door} read ${n} as ${reader} (${reply.status}) shows ${secret}`),
  )
}

/** The positive control: the administrator gets `secret` through the same reads, else the door's check proves nothing. */
function control(
  door: string,
  replies: { status: number; body: unknown; headers: Headers }[],
  secret: string,
): string[] {
  return replies.some((reply) => textOf(reply).includes(secret))
    ? []
    : [`${door}: the administrator does not see ${secret} either (the check reads nothing)`]
}

/** Every read `door` offers of the item `id` (named `name`): the administrator sees `secrets[0]`, the readers none of `secrets`. */
async function readDoor(
  door: 'namespace' | 'payload-rest' | 'graphql',
  resource: AuthoredResource,
  id: number,
  name: string,
  secrets: string[],
): Promise<string[]> {
  const wrong = control(door, await readsThrough(door, resource, id, name, admin), secrets[0]!)
  for (const reader of readers())
    wrong.push(
      ...leaks(
        door,
        reader.name,
        await readsThrough(door, resource, id, name, reader.token),
        secrets,
      ),
    )
  return wrong
}

/** A contributor's duplicate and bulk edit of an item they may not edit: what they get back, and the copy. */
async function adminActions(
  resource: AuthoredResource,
  id: number,
  secrets: string[],
): Promise<string[]> {
  const wrong: string[] = []
  const { contributor } = users
  const duplicate = await call(`/api/${resource.collection}/${id}/duplicate`, {
    method: 'POST',
    token: contributor.token,
    json: {},
  })
  wrong.push(...leaks('duplicate', 'contributor', [duplicate], secrets))
  const copyId = duplicate.body?.doc?.id as number | undefined
  if (copyId !== undefined) {
    wrong.push(
      ...leaks(
        'the duplicate’s copy',
        'contributor',
        [await call(`/api/${resource.collection}/${copyId}?depth=0`, { token: contributor.token })],
        secrets,
      ),
    )
    await call(`/api/${resource.collection}/${copyId}`, { method: 'DELETE', token: admin })
  }
  const bulk = await call(`/api/${resource.collection}?where[id][equals]=${id}`, {
    method: 'PATCH',
    token: contributor.token,
    json: { excerpt: 'x' },
  })
  wrong.push(...leaks('bulk edit', 'contributor', [bulk], secrets))
  const restore = await call(
    `/api/${resource.collection}/versions?where[parent][equals]=${id}&depth=0`,
    { token: contributor.token },
  )
  wrong.push(...leaks('versions list', 'contributor', [restore], secrets))
  return wrong
}

/** A term made through Payload's REST by the administrator. */
async function termMade(resource: TermResource, name: string): Promise<{ id: number }> {
  const reply = await call(`/api/${resource.collection}`, {
    method: 'POST',
    token: admin,
    json: { name },
  })
  if (reply.status !== 201) throw new Error(`creating ${resource.key}: ${textOf(reply)}`)
  return reply.body.doc
}

/** How many terms are called `name`, case and spaces aside, as stored. */
async function namedAlike(resource: TermResource, name: string): Promise<number> {
  const reply = await call(
    `/api/${resource.collection}?where[name][contains]=${encodeURIComponent(name.trim())}&limit=100&depth=0`,
    { token: admin },
  )
  return (reply.body.docs as { name: string }[]).filter(
    (doc) => doc.name.trim().toLowerCase() === name.trim().toLowerCase(),
  ).length
}

/** The same name made a second time among the same siblings, through a door: what it stored. */
async function secondOf(
  resource: TermResource,
  door: string,
  write: (name: string, other: { id: number }) => Promise<unknown>,
): Promise<string[]> {
  const name = unique('parityTerm')
  await termMade(resource, name)
  const other = await termMade(resource, unique('parityOther'))
  await write(`\u00a0${name.toUpperCase()}`, other)
  const count = await namedAlike(resource, name)
  return count === 1 ? [] : [`${door} stored ${count} ${resource.key} named ${name}`]
}

const graphqlTerm = (resource: TermResource) =>
  resource.key === 'categories' ? 'EventCategory' : 'EventTag'

const AUTHORED_RULES: Rule[] = [
  {
    name: 'an unpublished item is read only by those who may edit it',
    resources: authored,
    doors: {
      namespace: (resource) => {
        const { id, marker } = fixtures[resource.key].draft
        return readDoor('namespace', resource, id, marker, [marker])
      },
      'payload-rest': async (resource) => {
        const { id, marker } = fixtures[resource.key].draft
        const wrong = await readDoor('payload-rest', resource, id, marker, [marker])
        for (const door of ['payload-rest', 'graphql'] as const) {
          if (
            (await countThrough(
              door,
              resource,
              `where[id][equals]=${id}`,
              `{ id: { equals: ${id} } }`,
              admin,
            )) !== 1
          )
            wrong.push(`${door} count: the administrator does not count it`)
          for (const reader of readers())
            if (
              (await countThrough(
                door,
                resource,
                `where[id][equals]=${id}`,
                `{ id: { equals: ${id} } }`,
                reader.token,
              )) !== 0
            )
              wrong.push(`${door} count as ${reader.name} confirms it`)
        }
        return wrong
      },
      graphql: (resource) => {
        const { id, marker } = fixtures[resource.key].draft
        return readDoor('graphql', resource, id, marker, [marker])
      },
      'admin-actions': (resource) =>
        adminActions(resource, fixtures[resource.key].draft.id, [
          fixtures[resource.key].draft.marker,
        ]),
      imports: { notApplicable: 'imports write into the calendar and read only their own source' },
      exports: async (resource) => {
        const { marker } = fixtures[resource.key].draft
        const wrong: string[] = []
        if (resource.key === 'events' && !(await exports(admin)).includes(marker))
          wrong.push('exports: the administrator’s feed does not hold the draft either')
        for (const reader of readers())
          if ((await exports(reader.token)).includes(marker))
            wrong.push(`exports as ${reader.name} show ${marker}`)
        return wrong
      },
      'change-feed': async (resource) => {
        const { id } = fixtures[resource.key].draft
        const mine = (changes: Change[]) =>
          changes.filter((change) => change.type === resource.singular && change.id === id)
        const wrong =
          mine(await changesSince(feedStart, admin)).length === 1
            ? []
            : ['change feed: the administrator does not see the draft’s change']
        for (const reader of readers().slice(0, 2)) {
          const seen = mine(await changesSince(feedStart, reader.token))
          if (seen.length)
            wrong.push(
              `change feed as ${reader.name} lists a never-public ${resource.singular}: ${JSON.stringify(seen)}`,
            )
        }
        return wrong
      },
      webhooks: async (resource) => {
        const { draft, locked } = fixtures[resource.key]
        const named = (id: number) =>
          received.some((change) => change.type === resource.singular && change.id === id)
        for (let pass = 0; pass < 20 && !named(locked.id); pass++)
          await call('/api/webhooks/deliver', { method: 'POST', token: admin })
        const wrong = named(locked.id)
          ? []
          : ['webhooks: the published item was never delivered (the check reads nothing)']
        if (named(draft.id)) wrong.push(`webhooks deliver a never-public ${resource.singular}`)
        return wrong
      },
    },
  },
  {
    name: 'a protected item’s password and content reach only those who may edit it',
    resources: authored,
    doors: {
      namespace: (resource) => {
        const { locked } = fixtures[resource.key]
        return readDoor('namespace', resource, locked.id, locked.name, [locked.secret, PASSWORD])
      },
      'payload-rest': async (resource) => {
        const { locked } = fixtures[resource.key]
        const wrong = await readDoor('payload-rest', resource, locked.id, locked.name, [
          locked.secret,
          PASSWORD,
        ])
        const website = `https://${locked.secret}.example.org/`
        for (const door of ['payload-rest', 'graphql'] as const) {
          const guesses: [string, string][] = [
            [
              `where[and][0][id][equals]=${locked.id}&where[and][1][website][contains]=${locked.secret}`,
              `{ AND: [{ id: { equals: ${locked.id} } }, { website: { contains: "${locked.secret}" } }] }`,
            ],
            [
              `where[website][equals]=${encodeURIComponent(website)}`,
              `{ website: { equals: "${website}" } }`,
            ],
          ]
          for (const [rest, gql] of guesses) {
            if ((await countThrough(door, resource, rest, gql, admin)) !== 1)
              wrong.push(`${door} count: the administrator’s right guess does not count`)
            for (const reader of readers())
              if ((await countThrough(door, resource, rest, gql, reader.token)) !== 0)
                wrong.push(
                  `${door} count as ${reader.name} confirms a guess of withheld content (${rest})`,
                )
          }
        }
        return wrong
      },
      graphql: (resource) => {
        const { locked } = fixtures[resource.key]
        return readDoor('graphql', resource, locked.id, locked.name, [locked.secret, PASSWORD])
      },
      'admin-actions': async (resource) => {
        const { locked } = fixtures[resource.key]
        return adminActions(resource, locked.id, [locked.secret, PASSWORD])
      },
      imports: { notApplicable: 'imports write into the calendar and read only their own source' },
      exports: async (resource) => {
        const { locked } = fixtures[resource.key]
        const wrong: string[] = []
        for (const reader of readers()) {
          const text = await exports(reader.token)
          for (const secret of [locked.secret, PASSWORD])
            if (text.includes(secret)) wrong.push(`exports as ${reader.name} show ${secret}`)
        }
        return wrong
      },
      'change-feed': { notApplicable: 'an entry names a type, an id and an action: no content' },
      webhooks: {
        notApplicable: 'a delivery names a type, an id and an action: no content (docs/api.md §20)',
      },
    },
  },
  {
    name: 'a contributor’s publication (publish, private) is held as pending',
    resources: authored,
    doors: {
      namespace: async (resource) => {
        const wrong: string[] = []
        const field = resource.key === 'events' ? 'title' : resource.singular
        const dates =
          resource.key === 'events'
            ? { start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' }
            : {}
        for (const status of ['publish', 'private']) {
          const reply = await call(`${NS}/${resource.key}`, {
            method: 'POST',
            token: users.contributor.token,
            json: { [field]: unique('held'), status, ...dates },
          })
          if (reply.status !== 201 || reply.body.status !== 'pending')
            wrong.push(`namespace POST status=${status} → ${reply.status} ${reply.body?.status}`)
        }
        return wrong
      },
      'payload-rest': async (resource) => {
        const wrong: string[] = []
        for (const status of ['publish', 'private']) {
          const reply = await createAs(users.contributor.token, resource, {
            [nameField(resource)]: unique('held'),
            status,
          })
          if (reply.status !== 201) wrong.push(`POST status=${status} → ${reply.status}`)
          else if (reply.body.doc.status !== 'pending')
            wrong.push(`POST status=${status} stored ${reply.body.doc.status}`)
          const draft = (
            await createAs(users.contributor.token, resource, {
              [nameField(resource)]: unique('held'),
              status: 'draft',
            })
          ).body.doc
          await call(`/api/${resource.collection}/${draft.id}`, {
            method: 'PATCH',
            token: users.contributor.token,
            json: { status },
          })
          const now = (await stored(resource, draft.id)).status
          if (now !== 'pending' && now !== 'draft')
            wrong.push(`PATCH status=${status} stored ${now}`)
        }
        return wrong
      },
      graphql: async (resource) => {
        const wrong: string[] = []
        const names = graphqlNames(resource)
        const dates =
          resource.key === 'events' ? `, start: "${dayAt(5)}", end: "${dayAt(5, 14)}"` : ''
        for (const status of ['publish', 'private']) {
          const reply = await graphql(
            `mutation { ${names.create}(data: { ${nameField(resource)}: "${unique('held')}", status: ${status}${dates} }) { id status } }`,
            users.contributor.token,
          )
          const doc = reply.body?.data?.[names.create]
          if (!doc) wrong.push(`GraphQL create status=${status}: ${textOf(reply).slice(0, 200)}`)
          else if ((await stored(resource, doc.id)).status !== 'pending')
            wrong.push(
              `GraphQL create status=${status} stored ${(await stored(resource, doc.id)).status}`,
            )
        }
        return wrong
      },
      'admin-actions': async (resource) => {
        const wrong: string[] = []
        const own = (
          await createAs(users.contributor.token, resource, {
            [nameField(resource)]: unique('held'),
            status: 'draft',
          })
        ).body.doc
        for (const status of ['publish', 'private']) {
          await call(`/api/${resource.collection}?where[id][equals]=${own.id}`, {
            method: 'PATCH',
            token: users.contributor.token,
            json: { status },
          })
          const now = (await stored(resource, own.id)).status
          if (now !== 'pending' && now !== 'draft')
            wrong.push(`bulk edit status=${status} stored ${now}`)
        }
        const pending = (
          await createAs(users.contributor.token, resource, {
            [nameField(resource)]: unique('held'),
            status: 'pending',
          })
        ).body.doc
        const copy = await call(`/api/${resource.collection}/${pending.id}/duplicate`, {
          method: 'POST',
          token: users.contributor.token,
          json: { status: 'private' },
        })
        if (
          copy.body?.doc &&
          !['pending', 'draft'].includes((await stored(resource, copy.body.doc.id)).status)
        )
          wrong.push(`duplicate stored ${(await stored(resource, copy.body.doc.id)).status}`)
        return wrong
      },
      imports: async () => {
        const reply = await call('/api/imports', {
          method: 'POST',
          token: users.contributor.token,
          json: { source: 'site', url: 'https://example.org' },
        })
        return reply.status === 403
          ? []
          : [
              `a contributor may start an import (${reply.status}), whose items would carry any status`,
            ]
      },
      exports: { notApplicable: 'read-only: exports set no status' },
      'change-feed': { notApplicable: 'read-only: the feed sets no status' },
      webhooks: { notApplicable: 'outgoing only: deliveries set no status' },
    },
  },
  {
    name: 'a website is an http(s) URL, and a stored non-web URL is never served',
    resources: authored,
    doors: {
      namespace: async (resource) => {
        const field = resource.key === 'events' ? 'title' : resource.singular
        const dates =
          resource.key === 'events'
            ? { start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' }
            : {}
        const name = unique('badurl')
        const reply = await call(`${NS}/${resource.key}`, {
          method: 'POST',
          token: admin,
          json: { [field]: name, website: BAD_URL, ...dates },
        })
        return reply.status === 400 ? [] : [`namespace POST website=${BAD_URL} → ${reply.status}`]
      },
      'payload-rest': async (resource) => {
        const wrong: string[] = []
        const post = await createAs(admin, resource, {
          [nameField(resource)]: unique('badurl'),
          website: BAD_URL,
          status: 'publish',
        })
        if (post.status !== 400) wrong.push(`POST website=${BAD_URL} → ${post.status}`)
        const good = await created(resource, {
          [nameField(resource)]: unique('goodurl'),
          website: 'https://ok.example.org/',
          status: 'publish',
        })
        const patch = await call(`/api/${resource.collection}/${good.id}`, {
          method: 'PATCH',
          token: admin,
          json: { website: BAD_URL },
        })
        if (patch.status !== 400) wrong.push(`PATCH website=${BAD_URL} → ${patch.status}`)
        if ((await stored(resource, good.id)).website !== 'https://ok.example.org/')
          wrong.push('PATCH changed the stored website')
        return wrong
      },
      graphql: async (resource) => {
        const good = await created(resource, {
          [nameField(resource)]: unique('goodurl'),
          website: 'https://ok.example.org/',
          status: 'publish',
        })
        await graphql(
          `mutation { ${graphqlNames(resource).update}(id: ${good.id}, data: { website: "${BAD_URL}" }) { id } }`,
          admin,
        )
        return (await stored(resource, good.id)).website === 'https://ok.example.org/'
          ? []
          : ['GraphQL update stored a non-web website']
      },
      'admin-actions': async (resource) => {
        const good = await created(resource, {
          [nameField(resource)]: unique('goodurl'),
          website: 'https://ok.example.org/',
          status: 'publish',
        })
        await call(`/api/${resource.collection}?where[id][equals]=${good.id}`, {
          method: 'PATCH',
          token: admin,
          json: { website: BAD_URL },
        })
        return (await stored(resource, good.id)).website === 'https://ok.example.org/'
          ? []
          : ['bulk edit stored a non-web website']
      },
      imports: async (resource) => {
        const name = unique('importedurl')
        const csv: Record<AuthoredResource['key'], string> = {
          events: `Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,Event Website\n${name},2031-03-01,10:00,2031-03-01,11:00,${BAD_URL}\n`,
          venues: `Venue Name,Venue City,Venue Website\n${name},Lyon,${BAD_URL}\n`,
          organizers: `Organizer Name,Organizer Email,Organizer Website\n${name},a@example.org,${BAD_URL}\n`,
        }
        await importThroughQueue(csv[resource.key], { kind: resource.key })
        const docs = (
          await call(
            `/api/${resource.collection}?where[${nameField(resource)}][equals]=${name}&depth=0`,
            { token: admin },
          )
        ).body.docs as {
          website?: string
        }[]
        return docs
          .filter((doc) => doc.website?.startsWith('javascript'))
          .map(() => `a CSV import stored ${BAD_URL}`)
      },
      exports: async (resource) => {
        // Values stored before the rule (or by hand-written SQL) are not served either.
        const item = await created(resource, {
          [nameField(resource)]: unique('legacyurl'),
          status: 'publish',
          website: 'https://ok.example.org/',
        })
        await db.query(`update ${resource.collection} set website = $1 where id = $2`, [
          BAD_URL,
          item.id,
        ])
        const eventId = await linkingEvent(resource, item.id)
        const replies = [
          await call(`${NS}/${resource.key}/${item.id}`),
          await call(`${NS}/events/${eventId}`),
          await call(`${NS}/events/${eventId}.ics`),
          await call(`${NS}/events.csv`),
        ]
        return leaks('exports', 'anonymous', replies, ['javascript:'])
      },
      'change-feed': { notApplicable: 'an entry carries no field values' },
      webhooks: { notApplicable: 'a delivery carries no field values' },
    },
  },
  {
    name: 'deleting a series does exactly what it says',
    resources: eventsOnly,
    doors: {
      namespace: async () => {
        const { parent, ids } = await series()
        const reply = await call(`${NS}/events/${parent}`, { method: 'DELETE', token: admin })
        const wrong = reply.status === 200 ? [] : [`namespace DELETE → ${reply.status}`]
        return [...wrong, ...(await allIn(ids, 'trash')), ...(await regenerated(parent))]
      },
      'payload-rest': async () => {
        const wrong: string[] = []
        for (const order of ['parent first', 'parent last'] as const) {
          for (const mode of ['&trash=true', ''] as const) {
            const { parent, ids } = await series()
            const ordered = order === 'parent first' ? ids : [...ids.slice(1), parent]
            const query = ordered.map((id, n) => `where[id][in][${n}]=${id}`).join('&')
            const reply = await call(`/api/events?${query}${mode}`, {
              method: 'DELETE',
              token: admin,
            })
            if (reply.status !== 200 || (reply.body.errors ?? []).length)
              wrong.push(
                `bulk delete (${order}${mode}) → ${reply.status} ${textOf(reply).slice(0, 200)}`,
              )
            wrong.push(
              ...(await allIn(ids, 'gone')).map((line) => `(${order}${mode}) ${line}`),
              ...(await regenerated(parent)),
            )
          }
        }
        return wrong
      },
      graphql: async () => {
        const { parent, ids } = await series()
        await graphql(`mutation { deleteEvent(id: ${parent}) { id } }`, admin)
        return [...(await allIn(ids, 'gone')), ...(await regenerated(parent))]
      },
      'admin-actions': async () => {
        // The list's "Status → Trash" on a selection, then the first event published again (docs/api.md §16.2).
        const { parent, ids } = await series()
        const query = [...ids.slice(1), parent]
          .map((id, n) => `where[id][in][${n}]=${id}`)
          .join('&')
        await call(`/api/events?${query}`, {
          method: 'PATCH',
          token: admin,
          json: { status: 'trash' },
        })
        const wrong = [...(await allIn(ids, 'trash')), ...(await regenerated(parent))]
        await call(`/api/events/${parent}`, {
          method: 'PATCH',
          token: admin,
          json: { status: 'publish' },
        })
        const back = await occurrences(parent)
        if (back.length > ids.length - 1)
          wrong.push(`restoring made ${back.length} occurrences of ${ids.length - 1}`)
        return wrong
      },
      imports: {
        notApplicable:
          'imports delete nothing; a subscription trashes what left its feed through the namespace’s own trash operation',
      },
      exports: async () => {
        const { parent, marker } = await series()
        await call(`${NS}/events/${parent}`, { method: 'DELETE', token: admin })
        return (await exports()).includes(marker) ? ['a trashed series is still exported'] : []
      },
      'change-feed': async () => {
        const since = (await call(`${NS}/changes?since=now`)).body.next_cursor
        const { parent, ids } = await series()
        await call(`${NS}/events/${parent}`, { method: 'DELETE', token: admin })
        const changes = await changesSince(since)
        return ids
          .filter(
            (id) =>
              !changes.some(
                (change) =>
                  change.id === id && change.type === 'event' && change.action === 'delete',
              ),
          )
          .map((id) => `no delete for ${id}`)
      },
      webhooks: {
        notApplicable: 'a delivery is the anonymous change feed’s entry (checked there)',
      },
    },
  },
  {
    name: 'a venue or organizer in the trash is no event’s any more',
    resources: linkedOnly,
    doors: {
      namespace: async (resource) => {
        const { item, event } = await linkedPair(resource)
        await call(`${NS}/${resource.key}/${item}`, { method: 'DELETE', token: admin })
        return stillLinked(resource, item, event, 'namespace DELETE')
      },
      'payload-rest': async (resource) => {
        const { item, event } = await linkedPair(resource)
        await call(`/api/${resource.collection}/${item}`, {
          method: 'PATCH',
          token: admin,
          json: { status: 'trash' },
        })
        return stillLinked(resource, item, event, 'PATCH status=trash')
      },
      graphql: async (resource) => {
        const { item, event } = await linkedPair(resource)
        const update = graphqlNames(resource).update
        await graphql(`mutation { ${update}(id: ${item}, data: { status: trash }) { id } }`, admin)
        return stillLinked(resource, item, event, `${update} status: trash`)
      },
      'admin-actions': async (resource) => {
        const { item, event } = await linkedPair(resource)
        await call(`/api/${resource.collection}?where[id][equals]=${item}`, {
          method: 'PATCH',
          token: admin,
          json: { status: 'trash' },
        })
        return stillLinked(resource, item, event, 'bulk edit status=trash')
      },
      imports: {
        notApplicable:
          'a subscription trashes what left its feed through the namespace’s own trash, checked above',
      },
      exports: { notApplicable: 'read-only: exports trash nothing' },
      'change-feed': { notApplicable: 'read-only: the feed trashes nothing' },
      webhooks: { notApplicable: 'outgoing only: deliveries trash nothing' },
    },
  },
  {
    name: 'a venue or organizer in the trash is linked to no event anew',
    resources: linkedOnly,
    doors: {
      namespace: async (resource) => {
        const item = await trashedItem(resource)
        const param = resource.key === 'venues' ? 'venue' : 'organizer'
        const link = { [param]: resource.key === 'venues' ? item : [item] }
        const post = await call(`${NS}/events`, {
          method: 'POST',
          token: admin,
          json: {
            title: unique('parityTrashedLink'),
            start_date: '2031-01-01 10:00:00',
            end_date: '2031-01-01 11:00:00',
            ...link,
          },
        })
        const event = await linkingEvent(
          resource,
          (await created(resource, { name: unique('parityKept') })).id,
        )
        const update = await call(`${NS}/events/${event}`, {
          method: 'POST',
          token: admin,
          json: link,
        })
        const wrong = [
          ...refusedInNamespace(post, param, 'POST'),
          ...refusedInNamespace(update, param, 'update'),
          ...(await linksTrashed(resource, item, event, 'namespace update')),
        ]
        // An event whose link was made before the rule keeps saving, its link as it was.
        const legacy = await legacyPair(resource)
        const kept = await call(`${NS}/events/${legacy.event}`, {
          method: 'POST',
          token: admin,
          json: { title: unique('parityLegacy') },
        })
        if (kept.status !== 200) wrong.push(`legacy link: update → ${kept.status} ${textOf(kept)}`)
        return wrong
      },
      'payload-rest': async (resource) => {
        const item = await trashedItem(resource)
        const post = await createAs(admin, EVENTS, {
          title: unique('parityTrashedLink'),
          status: 'publish',
          ...linkFields(resource, item),
        })
        const event = await linkingEvent(
          resource,
          (await created(resource, { name: unique('parityKept') })).id,
        )
        const patch = await call(`/api/events/${event}`, {
          method: 'PATCH',
          token: admin,
          json: linkFields(resource, item),
        })
        const wrong = [
          ...refusedInPayload(post, resource, 'POST'),
          ...refusedInPayload(patch, resource, 'PATCH'),
          ...(await linksTrashed(resource, item, event, 'PATCH')),
        ]
        const legacy = await legacyPair(resource)
        const kept = await call(`/api/events/${legacy.event}`, {
          method: 'PATCH',
          token: admin,
          json: { title: unique('parityLegacy') },
        })
        if (kept.status !== 200) wrong.push(`legacy link: PATCH → ${kept.status} ${textOf(kept)}`)
        return wrong
      },
      graphql: async (resource) => {
        const item = await trashedItem(resource)
        const event = await linkingEvent(
          resource,
          (await created(resource, { name: unique('parityKept') })).id,
        )
        const link = resource.key === 'venues' ? `venue: ${item}` : `organizers: [${item}]`
        const reply = await graphql(
          `mutation { updateEvent(id: ${event}, data: { ${link} }) { id } }`,
          admin,
        )
        const text = textOf(reply)
        return [
          ...(reply.body?.errors?.length && text.includes('in the trash')
            ? []
            : [`updateEvent ${link}: ${text.slice(0, 300)}`]),
          ...(await linksTrashed(resource, item, event, 'updateEvent')),
        ]
      },
      'admin-actions': async (resource) => {
        const wrong: string[] = []
        const item = await trashedItem(resource)
        const event = await linkingEvent(
          resource,
          (await created(resource, { name: unique('parityKept') })).id,
        )
        const bulk = await call(`/api/events?where[id][equals]=${event}`, {
          method: 'PATCH',
          token: admin,
          json: linkFields(resource, item),
        })
        if (bulk.status !== 400)
          wrong.push(`bulk edit → ${bulk.status} ${textOf(bulk).slice(0, 300)}`)
        wrong.push(...(await linksTrashed(resource, item, event, 'bulk edit')))
        // A version from before the item's trash names it: its restore is refused.
        const pair = await linkedPair(resource)
        await call(`${NS}/${resource.key}/${pair.item}`, { method: 'DELETE', token: admin })
        const versions = (
          await call(
            `/api/events/versions?where[parent][equals]=${pair.event}&sort=createdAt&depth=0`,
            { token: admin },
          )
        ).body.docs as { id: string; version: { venue?: number; organizers?: number[] } }[]
        const before = versions.find((entry) =>
          resource.key === 'venues'
            ? entry.version.venue === pair.item
            : entry.version.organizers?.includes(pair.item),
        )
        if (!before) return [...wrong, `no version of event ${pair.event} links ${pair.item}`]
        const restore = await call(`/api/events/versions/${before.id}`, {
          method: 'POST',
          token: admin,
        })
        wrong.push(...refusedInPayload(restore, resource, 'version restore'))
        wrong.push(...(await linksTrashed(resource, pair.item, pair.event, 'version restore')))
        return wrong
      },
      imports: async (resource) => {
        // An import finds venues and organizers by name among those not in the trash.
        const name = unique('parityImportedGone')
        const item = await trashedItem(resource, name)
        const title = unique('parityImportedEvent')
        const column = resource.key === 'venues' ? 'Event Venue Name' : 'Event Organizer Name'
        await importThroughQueue(
          `Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,${column}\n${title},2031-03-01,10:00,2031-03-01,11:00,${name}\n`,
          { kind: 'events' },
        )
        const docs = (
          await call(`/api/events?where[title][equals]=${encodeURIComponent(title)}&depth=0`, {
            token: admin,
          })
        ).body.docs as { id: number }[]
        if (docs.length !== 1) return [`the import made ${docs.length} events`]
        return linksTrashed(resource, item, docs[0]!.id, 'CSV import')
      },
      exports: { notApplicable: 'read-only: exports link nothing' },
      'change-feed': { notApplicable: 'read-only: the feed links nothing' },
      webhooks: { notApplicable: 'outgoing only: deliveries link nothing' },
    },
  },
  {
    name: 'a slug is never blank: one sent blank is made again from the name',
    resources: authored,
    doors: {
      namespace: async (resource) => {
        const item = await created(resource, { [nameField(resource)]: unique('Slugged') })
        const reply = await call(`${NS}/${resource.key}/${item.id}`, {
          method: 'PATCH',
          token: admin,
          json: { slug: '' },
        })
        const now = (await stored(resource, item.id)).slug
        return reply.status === 400 && now === item.slug
          ? []
          : [`namespace PATCH slug "" → ${reply.status}, slug ${JSON.stringify(now)}`]
      },
      'payload-rest': async (resource) => {
        const wrong: string[] = []
        for (const blank of ['', '   ']) {
          const name = unique('Slugged')
          const item = await created(resource, { [nameField(resource)]: name })
          await call(`/api/${resource.collection}/${item.id}`, {
            method: 'PATCH',
            token: admin,
            json: { slug: blank },
          })
          const now = (await stored(resource, item.id)).slug
          if (now !== item.slug) wrong.push(`PATCH slug ${JSON.stringify(blank)} stored ${now}`)
          const made = await createAs(admin, resource, {
            [nameField(resource)]: name,
            slug: blank,
          })
          if (!made.body.doc?.slug?.startsWith(item.slug))
            wrong.push(`POST slug ${JSON.stringify(blank)} stored ${made.body.doc?.slug}`)
        }
        return wrong
      },
      graphql: async (resource) => {
        const item = await created(resource, { [nameField(resource)]: unique('Slugged') })
        const update = graphqlNames(resource).update
        await graphql(`mutation { ${update}(id: ${item.id}, data: { slug: "" }) { id } }`, admin)
        const now = (await stored(resource, item.id)).slug
        return now === item.slug ? [] : [`GraphQL slug "" stored ${JSON.stringify(now)}`]
      },
      'admin-actions': async (resource) => {
        const item = await created(resource, { [nameField(resource)]: unique('Slugged') })
        await call(`/api/${resource.collection}?where[id][equals]=${item.id}`, {
          method: 'PATCH',
          token: admin,
          json: { slug: ' ' },
        })
        const now = (await stored(resource, item.id)).slug
        return now === item.slug ? [] : [`bulk edit slug " " stored ${JSON.stringify(now)}`]
      },
      imports: {
        notApplicable:
          'an import writes through Payload, whose slug field is checked through Payload’s REST',
      },
      exports: { notApplicable: 'read-only: exports write no slug' },
      'change-feed': { notApplicable: 'read-only: the feed writes no slug' },
      webhooks: { notApplicable: 'outgoing only: deliveries write no slug' },
    },
  },
  {
    name: 'a writer joins or splits only a series they may edit',
    resources: eventsOnly,
    doors: {
      namespace: async () => {
        const wrong: string[] = []
        for (const [role, user] of writersOfOthers()) {
          const { parent } = await series()
          const before = await seriesState(parent)
          const joined = await call(`${NS}/events`, {
            method: 'POST',
            token: user.token,
            json: {
              title: unique('joins'),
              start_date: `${ymd(11)} 12:00:00`,
              end_date: `${ymd(11)} 13:00:00`,
              parent,
            },
          })
          if (joined.status !== 400) wrong.push(`${role} POST parent → ${joined.status}`)
          // An occurrence given to them keeps its own values; its rule would cut the series.
          const [given] = await occurrences(parent)
          await call(`/api/events/${given!.id}`, {
            method: 'PATCH',
            token: admin,
            json: { author: user.id, status: 'draft' },
          })
          const ruled = await call(`${NS}/events/${given!.id}`, {
            method: 'PATCH',
            token: user.token,
            json: { recurrence: 'RRULE:FREQ=DAILY;COUNT=2' },
          })
          if (ruled.status !== 400) wrong.push(`${role} PATCH recurrence → ${ruled.status}`)
          const after = await seriesState(parent)
          if (after !== before) wrong.push(`${role}: ${before} became ${after}`)
        }
        return wrong
      },
      'payload-rest': async () => {
        const wrong: string[] = []
        for (const [role, user] of writersOfOthers()) {
          const { parent } = await series()
          const before = await seriesState(parent)
          const joined = await createAs(user.token, EVENTS, { title: unique('joins'), parent })
          if (joined.status !== 400) wrong.push(`${role} POST parent → ${joined.status}`)
          const own = (await createAs(user.token, EVENTS, { title: unique('own') })).body.doc
          const moved = await call(`/api/events/${own.id}`, {
            method: 'PATCH',
            token: user.token,
            json: { parent },
          })
          if (moved.status !== 400) wrong.push(`${role} PATCH parent → ${moved.status}`)
          const after = await seriesState(parent)
          if (after !== before) wrong.push(`${role}: ${before} became ${after}`)
        }
        return wrong
      },
      graphql: async () => {
        const wrong: string[] = []
        for (const [role, user] of writersOfOthers()) {
          const { parent } = await series()
          const before = await seriesState(parent)
          const create = (link: string) =>
            graphql(
              `mutation { createEvent(data: { title: "${unique('joins')}", status: draft, start: "${dayAt(5)}", end: "${dayAt(5, 14)}"${link} }) { id } }`,
              user.token,
            )
          // The same mutation without the parent is theirs to make: only the parent refuses it.
          if (!(await create('')).body?.data?.createEvent) wrong.push(`${role} createEvent refused`)
          const reply = await create(`, parent: ${parent}`)
          if (!textOf(reply).includes('parent must be an event you may edit'))
            wrong.push(`${role} createEvent with parent: ${textOf(reply).slice(0, 200)}`)
          const after = await seriesState(parent)
          if (after !== before) wrong.push(`${role}: ${before} became ${after}`)
        }
        return wrong
      },
      'admin-actions': async () => {
        const wrong: string[] = []
        for (const [role, user] of writersOfOthers()) {
          const { parent } = await series()
          const before = await seriesState(parent)
          const own = (await createAs(user.token, EVENTS, { title: unique('own') })).body.doc
          await call(`/api/events?where[id][equals]=${own.id}`, {
            method: 'PATCH',
            token: user.token,
            json: { parent },
          })
          const after = await seriesState(parent)
          if (after !== before) wrong.push(`${role} bulk edit: ${before} became ${after}`)
        }
        return wrong
      },
      imports: {
        notApplicable:
          'only administrators start imports (a contributor’s is refused above), and an import names parents among the events it writes',
      },
      exports: { notApplicable: 'read-only: exports join no series' },
      'change-feed': { notApplicable: 'read-only: the feed joins no series' },
      webhooks: { notApplicable: 'outgoing only: deliveries join no series' },
    },
  },
]

const TERM_RULES: Rule<TermResource>[] = [
  {
    name: 'a term’s name is its own among its siblings',
    resources: terms,
    doors: {
      namespace: (resource) =>
        secondOf(resource, 'the namespace', (name) =>
          call(`${NS}/${resource.key}`, { method: 'POST', token: admin, json: { name } }),
        ),
      'payload-rest': async (resource) => [
        ...(await secondOf(resource, 'Payload REST create', (name) =>
          call(`/api/${resource.collection}`, { method: 'POST', token: admin, json: { name } }),
        )),
        ...(await secondOf(resource, 'Payload REST rename', (name, other) =>
          call(`/api/${resource.collection}/${other.id}`, {
            method: 'PATCH',
            token: admin,
            json: { name },
          }),
        )),
      ],
      graphql: (resource) =>
        secondOf(resource, 'GraphQL', (name) =>
          graphql(
            `mutation { create${graphqlTerm(resource)}(data: { name: ${JSON.stringify(name)} }) { id } }`,
            admin,
          ),
        ),
      'admin-actions': async (resource) => {
        const wrong = await secondOf(resource, 'a bulk edit', (name, other) =>
          call(`/api/${resource.collection}?where[id][equals]=${other.id}`, {
            method: 'PATCH',
            token: admin,
            json: { name },
          }),
        )
        const [a, b] = [
          await termMade(resource, unique('parityA')),
          await termMade(resource, unique('parityB')),
        ]
        const both = unique('parityBoth')
        await call(`/api/${resource.collection}?where[id][in]=${a.id},${b.id}`, {
          method: 'PATCH',
          token: admin,
          json: { name: both },
        })
        if (await namedAlike(resource, both))
          wrong.push(`a bulk edit named two ${resource.key} alike`)
        const original = unique('parityOriginal')
        const { id } = await termMade(resource, original)
        await call(`/api/${resource.collection}/${id}/duplicate`, { method: 'POST', token: admin })
        if ((await namedAlike(resource, original)) !== 1)
          wrong.push(`the duplicate of a ${resource.singular} took its name`)
        return wrong
      },
      imports: (resource) =>
        secondOf(resource, 'a CSV import', (name) => {
          const column = resource.key === 'categories' ? 'Event Category' : 'Event Tags'
          const title = unique('parityImported')
          return importThroughQueue(
            `Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,${column}\n${title},2031-03-01,10:00,2031-03-01,11:00,${name.trim()}\n`,
            { kind: 'events' },
          )
        }),
      exports: { notApplicable: 'the exports write no terms; they read what is stored' },
      'change-feed': async (resource) => {
        const since = (await call(`${NS}/changes?since=now`)).body.next_cursor
        const other = await termMade(resource, unique('parityFeed'))
        const taken = unique('parityTaken')
        await termMade(resource, taken)
        const after = (await call(`${NS}/changes?since=now`)).body.next_cursor
        await call(`/api/${resource.collection}/${other.id}`, {
          method: 'PATCH',
          token: admin,
          json: { name: taken },
        })
        const mine = (changes: Change[]) =>
          changes.filter((change) => change.type === resource.singular && change.id === other.id)
        const wrong = mine(await changesSince(since)).length
          ? []
          : ['change feed: the term’s creation is not listed (the check reads nothing)']
        if (mine(await changesSince(after)).length)
          wrong.push(`a refused rename of a ${resource.singular} is in the change feed`)
        return wrong
      },
      webhooks: {
        notApplicable: 'a delivery is the anonymous change feed’s entry (checked there)',
      },
    },
  },
]

const RULES: (Rule | Rule<TermResource>)[] = [...AUTHORED_RULES, ...TERM_RULES]

/** A published daily series of four events made by the administrator: the first event's id, and all four. */
async function series(): Promise<{ parent: number; ids: number[]; marker: string }> {
  const marker = unique('paritySeries')
  const reply = await call(`${NS}/events`, {
    method: 'POST',
    token: admin,
    // Within the horizon, so that every occurrence is made at once (docs/api.md §16.3).
    json: {
      title: marker,
      start_date: `${ymd(10)} 10:00:00`,
      end_date: `${ymd(10)} 11:00:00`,
      status: 'publish',
      recurrence: 'RRULE:FREQ=DAILY;COUNT=4',
    },
  })
  expect(reply.status, textOf(reply)).toBe(201)
  const parent = reply.body.id as number
  const ids = [parent, ...(await occurrences(parent)).map((doc) => doc.id)]
  expect(ids).toHaveLength(4)
  return { parent, ids, marker }
}

async function occurrences(parent: number): Promise<{ id: number; status: string }[]> {
  const reply = await call(
    `/api/events?where[parent][equals]=${parent}&where[status][not_equals]=trash&limit=100&depth=0`,
    { token: admin },
  )
  return reply.body.docs
}

async function allIn(ids: number[], state: 'trash' | 'gone'): Promise<string[]> {
  const wrong: string[] = []
  for (const id of ids) {
    const reply = await call(`/api/events/${id}?depth=0`, { token: admin })
    if (state === 'gone' && reply.status !== 404)
      wrong.push(`event ${id} still exists (${reply.body?.status})`)
    if (state === 'trash' && reply.body?.status !== 'trash')
      wrong.push(
        `event ${id} is ${reply.status === 404 ? 'gone' : reply.body?.status}, not in the trash`,
      )
  }
  return wrong
}

/** The writers who may not edit an administrator's series. */
const writersOfOthers = () =>
  [
    ['author', users.author],
    ['contributor', users.contributor],
  ] as const

/** What another writer could change of a series: its first event's rule and the events in it. */
async function seriesState(parent: number): Promise<string> {
  const head = await stored(EVENTS, parent)
  const ids = (await occurrences(parent)).map((doc) => doc.id).sort((a, b) => a - b)
  return JSON.stringify({ rule: head.recurrence, ids })
}

async function regenerated(parent: number): Promise<string[]> {
  const left = await occurrences(parent)
  return left.length ? [`${left.length} occurrence(s) of ${parent} remain or were made again`] : []
}

let checks = 0
for (const rule of RULES) {
  describe(rule.name, () => {
    for (const door of DOORS) {
      const decision = rule.doors[door]
      for (const resource of RESOURCES) {
        if (!rule.resources(resource)) continue
        if (typeof decision !== 'function') continue
        checks++
        it(`${door} · ${resource.key}`, async () => {
          expect(await (decision as Check<Resource>)(resource)).toEqual([])
        })
      }
    }
  })
}

describe('the matrix', () => {
  it('decides every door for every rule, with a reason wherever there is no check', () => {
    for (const rule of RULES) {
      for (const door of DOORS) {
        const decision = rule.doors[door]
        expect(
          typeof decision === 'function' || decision.notApplicable.length > 10,
          `${rule.name} / ${door}`,
        ).toBe(true)
      }
    }
    expect(checks).toBeGreaterThan(50)
    console.log(`door parity: ${RULES.length} rules × ${DOORS.length} doors, ${checks} checks`)
  })
})
