/**
 * Writes run side by side (docs/performance.md, "Writes"): a write waits for no other write still
 * open, readers wait for none, and what follows the content revision (kept answers, ETags), the
 * change feed and the term counts take in every write as it commits, in the order of the commits.
 */
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique, type Reply } from '../support/api'
import { heldWhileWaiting } from '../support/rowHolder'
import { api, createEventAs, createOrganizerAs, createVenueAs } from '../support/writeFixtures'

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/** A transaction of hand-written SQL, a door like the others, that has written content and is still open. */
async function openWrite(text: string, values: unknown[]): Promise<pg.Client> {
  const writer = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await writer.connect()
  await writer.query('begin')
  await writer.query(text, values)
  return writer
}

/** `work`'s result, or a failure naming `what` if it is still waiting after `ms`. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms)
  })
  return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/** The events after `since` in the change feed, as the administrator reads it, and the cursor after them. */
async function eventsChangedSince(
  since: string,
  among: number[],
): Promise<{ ids: number[]; cursor: string }> {
  const ids: number[] = []
  let cursor = since
  for (;;) {
    const reply = await api(`/changes?since=${cursor}&per_page=500`, { token: admin })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    for (const change of reply.body.changes as { type: string; id: number }[])
      if (change.type === 'event' && among.includes(change.id)) ids.push(change.id)
    cursor = reply.body.next_cursor
    if (!reply.body.has_more) return { ids, cursor }
  }
}

const countOf = async (category: number) =>
  (await api(`/categories/${category}`, { token: admin })).body.count as number

async function newCategory(): Promise<number> {
  const reply = await api('/categories', {
    method: 'POST',
    token: admin,
    json: { name: unique('Side by side ') },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.id
}

describe('writes side by side', () => {
  it('a write commits while another is still open; readers wait for neither and see each as it commits, in commit order', async () => {
    const category = await newCategory()
    const held = await createEventAs(admin, { status: 'publish', categories: [category] })
    const since = (await api('/changes?since=now', { token: admin })).body.next_cursor as string
    const before = await api(`/events/${held.id}`)
    expect(before.status).toBe(200)
    const retitled = unique('Retitled by hand ')
    const writer = await openWrite('update events_locales set title = $1 where _parent_id = $2', [
      retitled,
      held.id,
    ])
    try {
      const beside = await within(
        15_000,
        'a create beside an open write',
        createEventAs(admin, { status: 'publish', categories: [category] }),
      )
      const during = await within(15_000, 'a read beside an open write', api(`/events/${held.id}`))
      expect(during.body.title).toBe(before.body.title)
      expect(during.headers.get('etag')).not.toBe(before.headers.get('etag'))
      expect(await countOf(category)).toBe(2)
      const first = await eventsChangedSince(since, [held.id, beside.id])
      expect(first.ids).toEqual([beside.id])

      await writer.query('commit')
      // Committed on a connection of its own, as another instance would: this instance learns of it
      // by the revision's notification (docs/api.md §14.3), which may come a moment after the commit.
      // Not how soon it comes (bench/afterWrite.ts measures it): the bound keeps a lost one from waiting long.
      let after = during
      await expect
        .poll(async () => (after = await api(`/events/${held.id}`)).body.title, {
          timeout: 10_000,
          interval: 20,
        })
        .toBe(retitled)
      expect(after.headers.get('etag')).not.toBe(during.headers.get('etag'))
      // The open write's change comes after the cursor a reader took meanwhile: none is passed over.
      expect((await eventsChangedSince(first.cursor, [held.id, beside.id])).ids).toEqual([held.id])
    } finally {
      await writer.query('rollback').catch(() => undefined)
      await writer.end()
    }
  })

  it('a bulk update by a caller who may write nothing waits for no other write: refused at once, it holds and reads no row', async () => {
    const held = await createEventAs(admin, { status: 'publish' })
    const writer = await openWrite('update events set sticky = true where id = $1', [held.id])
    try {
      const refused = await within(
        15_000,
        'an anonymous bulk update',
        call(`/api/events?where[id][equals]=${held.id}`, {
          method: 'PATCH',
          json: { title: 'Anonymous' },
        }),
      )
      expect(refused.status, JSON.stringify(refused.body)).toBe(403)
    } finally {
      await writer.query('rollback').catch(() => undefined)
      await writer.end()
    }
  })

  it('writes to the same terms at once all commit, and each counts once', async () => {
    const [first, second] = [await newCategory(), await newCategory()]
    const since = (await api('/changes?since=now', { token: admin })).body.next_cursor as string
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        api('/events', {
          method: 'POST',
          token: admin,
          json: {
            title: unique('At once '),
            status: 'publish',
            start_date: `2031-03-${String(10 + index).padStart(2, '0')} 19:00:00`,
            end_date: `2031-03-${String(10 + index).padStart(2, '0')} 21:00:00`,
            categories: index % 2 ? [first, second] : [second, first],
          },
        }),
      ),
    )
    expect(replies.map((reply) => reply.status)).toEqual(Array(8).fill(201))
    expect([await countOf(first), await countOf(second)]).toEqual([8, 8])
    const ids = replies.map((reply) => reply.body.id as number)
    const byId = (a: number, b: number) => a - b
    expect((await eventsChangedSince(since, ids)).ids.sort(byId)).toEqual([...ids].sort(byId))
  })
})

describe('writes to one series at once', () => {
  /** A weekly series of 12 events and its later occurrences' ids, in order. */
  async function series(): Promise<{ first: number; later: number[] }> {
    const first = await createEventAs(admin, {
      status: 'publish',
      start_date: '2027-05-03 19:00:00',
      end_date: '2027-05-03 21:00:00',
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=12',
    })
    const reply = await api(
      `/events?post_parent=${first.id}&per_page=50&start_date=2027-01-01&end_date=2028-12-31`,
      { token: admin },
    )
    return { first: first.id, later: (reply.body.events as { id: number }[]).map(({ id }) => id) }
  }

  const split = (id: number, rule: string) =>
    api(`/events/${id}`, { method: 'PATCH', token: admin, json: { recurrence: `RRULE:${rule}` } })

  it('take turns: a split beside a delete, a new rule or another split, an occurrence beside its series; none fails, none leaves a day twice', async () => {
    const scenarios: Record<string, (s: { first: number; later: number[] }) => Promise<unknown>[]> =
      {
        'split, delete the first': ({ first, later }) => [
          split(later[5]!, 'FREQ=DAILY;COUNT=3'),
          api(`/events/${first}`, { method: 'DELETE', token: admin }),
        ],
        'split, new rule on the first': ({ first, later }) => [
          split(later[5]!, 'FREQ=DAILY;COUNT=3'),
          split(first, 'FREQ=WEEKLY;COUNT=20'),
        ],
        'two splits': ({ later }) => [
          split(later[5]!, 'FREQ=DAILY;COUNT=3'),
          split(later[7]!, 'FREQ=DAILY;COUNT=2'),
        ],
        'an occurrence, delete the first': ({ first, later }) => [
          api(`/events/${later[3]}`, { method: 'PATCH', token: admin, json: { title: 'Own' } }),
          api(`/events/${first}`, { method: 'DELETE', token: admin }),
        ],
      }
    const wrong: string[] = []
    for (const [name, race] of Object.entries(scenarios)) {
      for (let round = 0; round < 2; round++) {
        const made = await series()
        const replies = (await Promise.all(race(made))) as { status: number; body: unknown }[]
        // The split at the earlier day may go first and delete the later one's event: a 404 then.
        const allowed = name === 'two splits' ? [200, 404] : [200]
        for (const reply of replies)
          if (!allowed.includes(reply.status))
            wrong.push(`${name}: ${reply.status} ${JSON.stringify(reply.body)}`)
        const members = await api(
          `/events?post_parent=${made.first}&per_page=50&status=any&start_date=2027-01-01&end_date=2028-12-31`,
          { token: admin },
        )
        const days = (members.body.events as { start_date: string }[]).map((event) =>
          event.start_date.slice(0, 10),
        )
        if (new Set(days).size !== days.length)
          wrong.push(`${name}: a day twice in ${days.join(' ')}`)
      }
    }
    expect(wrong).toEqual([])
  }, 120_000)

  it('a write PostgreSQL undoes as a deadlock is a 409 with Retry-After, through the namespace, Payload and GraphQL, and nothing of it is written', async () => {
    const wrong: string[] = []
    for (const door of ['namespace', 'payload', 'graphql'] as const) {
      const { first, later } = await series()
      const target = later[2]!
      const title = unique('Deadlocked ')
      // A writer by hand holds the occurrence's row, then waits for the series' lock, which the
      // write, waiting for that row, already holds: PostgreSQL undoes the one that waited first.
      const writer = await openWrite('update events set updated_at = now() where id = $1', [target])
      try {
        const write =
          door === 'namespace'
            ? api(`/events/${target}`, { method: 'PATCH', token: admin, json: { title } })
            : door === 'payload'
              ? call(`/api/events/${target}`, { method: 'PATCH', token: admin, json: { title } })
              : call('/api/graphql', {
                  method: 'POST',
                  token: admin,
                  json: {
                    query: `mutation { updateEvent(id: ${target}, data: { title: "${title}" }) { id } }`,
                  },
                })
        await new Promise((resolve) => setTimeout(resolve, 500))
        await writer.query(`select pg_advisory_xact_lock(hashtext('calendar_series'), $1)`, [first])
        const reply = await within(15_000, 'a deadlocked write', write)
        // GraphQL answers 200 and tells the error's status in its `extensions`.
        const graphqlStatus = (
          reply.body as { errors?: { extensions?: { statusCode?: number } }[] }
        ).errors?.[0]?.extensions?.statusCode
        const shape = {
          door,
          status: door === 'graphql' ? graphqlStatus : reply.status,
          retryAfter: reply.headers.get('retry-after'),
          code: (reply.body as { code?: string }).code ?? null,
        }
        const expected = {
          door,
          status: 409,
          retryAfter: '1',
          code: door === 'namespace' ? 'rest_write_conflict' : null,
        }
        if (JSON.stringify(shape) !== JSON.stringify(expected)) wrong.push(JSON.stringify(shape))
      } finally {
        await writer.query('rollback').catch(() => undefined)
        await writer.end()
      }
      const stored = await call(`/api/events/${target}?depth=0`, { token: admin })
      if (stored.body.title === title) wrong.push(`${door}: the undone title was stored`)
    }
    expect(wrong).toEqual([])
  }, 60_000)

  it('two organizers trashed at once, each linking events of two series in opposite orders, take turns: both 200, every event unlinked', async () => {
    const [one, two] = [await series(), await series()]
    const organizers = [await createOrganizerAs(admin), await createOrganizerAs(admin)]
    // By start, the first organizer's events are in one series then the other, the second's the
    // other way round: trashes that took each series' lock as they unlinked their events took them
    // in opposite orders, and one was undone as a deadlock (docs/api.md §11, "Writes that collide").
    const links: [number, number][] = [
      [one.later[0]!, organizers[0].id],
      [two.later[5]!, organizers[0].id],
      [two.later[0]!, organizers[1].id],
      [one.later[5]!, organizers[1].id],
    ]
    for (const [event, organizer] of links) {
      const linked = await call(`/api/events/${event}`, {
        method: 'PATCH',
        token: admin,
        json: { organizers: [organizer] },
      })
      expect(linked.status, JSON.stringify(linked.body)).toBe(200)
    }
    const trashes = await Promise.all(
      organizers.map(({ id }) => api(`/organizers/${id}`, { method: 'DELETE', token: admin })),
    )
    expect(
      trashes.map(({ status }) => status),
      JSON.stringify(trashes.map(({ body }) => body)),
    ).toEqual([200, 200])
    for (const [event] of links) {
      const stored = await call(`/api/events/${event}?depth=0`, { token: admin })
      expect(stored.body.organizers, `event ${event}`).toEqual([])
    }
  }, 60_000)
})

describe('bulk writes PostgreSQL undoes', () => {
  type Held = { table: string; id: number }
  type Case = {
    /** The row the hand-written writer holds first, and the one it then waits for. */
    holds: Held
    then: Held
    bulk: () => Promise<Reply>
    /** What each item stores, read through Payload, that the undone bulk would have changed. */
    stored: () => Promise<unknown>
  }
  const idsIn = (...ids: number[]) => ids.map((id, at) => `where[id][in][${at}]=${id}`).join('&')
  const storedOf = (collection: string, ids: number[], fields: string[]) =>
    Promise.all(
      ids.map(async (id) => {
        const reply = await call(`/api/${collection}/${id}?depth=0`, { token: admin })
        return {
          id,
          status: reply.status,
          ...Object.fromEntries(fields.map((f) => [f, reply.body[f]])),
        }
      }),
    )

  it('a bulk edit or delete through Payload REST undone as a deadlock is a 409 with Retry-After, and nothing of it is written', async () => {
    const cases: Record<string, () => Promise<Case>> = {
      // The edit holds both events (in order of id), then waits to link the venue the writer holds;
      // the writer then waits for an event: the edit waited first, PostgreSQL undoes it.
      'an edit linking a venue': async () => {
        const venue = await createVenueAs(admin, { status: 'publish' })
        const [a, b] = [await createEventAs(admin), await createEventAs(admin)]
        return {
          holds: { table: 'venues', id: venue.id },
          then: { table: 'events', id: a.id },
          bulk: () =>
            call(`/api/events?${idsIn(a.id, b.id)}`, {
              method: 'PATCH',
              token: admin,
              json: { venue: venue.id, title: unique('Undone ') },
            }),
          stored: () => storedOf('events', [a.id, b.id], ['title', 'venue']),
        }
      },
      // The edit holds the lower id's event, then waits for the higher, which the writer holds.
      'an edit of two events': async () => {
        const [a, b] = [await createEventAs(admin), await createEventAs(admin)]
        return {
          holds: { table: 'events', id: Math.max(a.id, b.id) },
          then: { table: 'events', id: Math.min(a.id, b.id) },
          bulk: () =>
            call(`/api/events?${idsIn(a.id, b.id)}`, {
              method: 'PATCH',
              token: admin,
              json: { title: unique('Undone ') },
            }),
          stored: () => storedOf('events', [a.id, b.id], ['title']),
        }
      },
      // The delete holds the venues' events first, then waits to delete the venue the writer holds.
      'a delete of two venues': async () => {
        const venueIds = [(await createVenueAs(admin)).id, (await createVenueAs(admin)).id]
        const eventIds = [
          (await createEventAs(admin, { venue: venueIds[0] })).id,
          (await createEventAs(admin, { venue: venueIds[1] })).id,
        ]
        return {
          holds: { table: 'venues', id: venueIds[1] },
          then: { table: 'events', id: eventIds[0] },
          bulk: () =>
            call(`/api/venues?${idsIn(...venueIds)}`, {
              method: 'DELETE',
              token: admin,
            }),
          stored: async () => [
            ...(await storedOf('venues', venueIds, ['name'])),
            ...(await storedOf('events', eventIds, ['venue'])),
          ],
        }
      },
    }
    const wrong: string[] = []
    for (const [name, made] of Object.entries(cases)) {
      const { holds, then, bulk, stored } = await made()
      const before = await stored()
      const reply = await heldWhileWaiting(
        process.env.DATABASE_URL!,
        [`select id from ${holds.table} where id = $1 for update`, [holds.id]],
        () => within(15_000, name, bulk()),
        async (holder) =>
          void (await holder.query(`select id from ${then.table} where id = $1 for update`, [
            then.id,
          ])),
      )
      const shape = {
        status: reply.status,
        retryAfter: reply.headers.get('retry-after'),
        message: reply.body?.errors?.[0]?.message,
      }
      const expected = {
        status: 409,
        retryAfter: '1',
        message: 'Another write to the same items ran at the same time; send it again.',
      }
      if (JSON.stringify(shape) !== JSON.stringify(expected))
        wrong.push(`${name}: ${JSON.stringify({ ...shape, body: reply.body })}`)
      const after = await stored()
      if (JSON.stringify(after) !== JSON.stringify(before))
        wrong.push(`${name}: stored ${JSON.stringify(after)}, was ${JSON.stringify(before)}`)
    }
    expect(wrong).toEqual([])
  }, 90_000)
})

describe('parents set at once', () => {
  it('never make a cycle or a chain: of two writes that would, one is refused (400) or undone (409), through the namespace and Payload', async () => {
    const setParent = (door: 'namespace' | 'payload', id: number, parent: number) =>
      door === 'namespace'
        ? api(`/events/${id}`, { method: 'PATCH', token: admin, json: { parent } })
        : call(`/api/events/${id}`, { method: 'PATCH', token: admin, json: { parent } })
    const parentOf = async (id: number) =>
      ((await call(`/api/events/${id}?depth=0`, { token: admin })).body.parent ?? null) as
        number | null
    const wrong: string[] = []
    for (const door of ['namespace', 'payload', 'namespace', 'payload'] as const) {
      const [a, b, c] = await Promise.all([
        createEventAs(admin),
        createEventAs(admin),
        createEventAs(admin),
      ])
      // A under B beside B under A (a cycle), and C under A (a chain, should A get a parent).
      const replies = await Promise.all([
        setParent(door, a.id, b.id),
        setParent(door, b.id, a.id),
        setParent(door, c.id, a.id),
      ])
      const statuses = replies.map((reply) => reply.status)
      for (const status of statuses)
        if (![200, 400, 409].includes(status)) wrong.push(`${door}: answered ${status}`)
      const [ofA, ofB, ofC] = await Promise.all([parentOf(a.id), parentOf(b.id), parentOf(c.id)])
      const parents = new Map([
        [a.id, ofA],
        [b.id, ofB],
        [c.id, ofC],
      ])
      for (const [id, parent] of parents)
        if (parent !== null && (parents.get(parent) ?? null) !== null)
          wrong.push(`${door}: ${id} under ${parent}, itself under ${parents.get(parent)}`)
    }
    expect(wrong).toEqual([])
  }, 120_000)
})
