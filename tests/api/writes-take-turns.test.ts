/**
 * Two updates of one item at the same moment, through any two doors, each keep what the other wrote
 * (docs/api.md §11, "Writes at once"): Payload's update writes an item's whole row back from its
 * read, so without turns the second writer's answer said 200 and the first writer's change was gone.
 * Terms, single events that keep no version (a series' past occurrences once it ends) and bulk
 * updates lost one writer's change in most rounds before.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique, type Reply } from '../support/api'
import { createCategory, createEvent, createTag, createVenue } from '../support/fixtures'
import { changedWhileWaiting } from '../support/rowHolder'

const ROUNDS = 6
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

const namespace = (path: string, json: Record<string, unknown>) =>
  call(`${NS}${path}`, { method: 'POST', token: admin, json })
const patch = (path: string, json: Record<string, unknown>) =>
  call(`/api${path}`, { method: 'PATCH', token: admin, json })
const graphql = (query: string) =>
  call('/api/graphql', { method: 'POST', token: admin, json: { query } })
const stored = async (path: string) => (await call(`/api${path}?depth=0`, { token: admin })).body

/** The slugs stored for the items that creates through the namespace or Payload REST answered. */
const slugsOf = (collection: string, created: Reply[]): Promise<string[]> =>
  Promise.all(
    created.map(
      async (reply) => (await stored(`${collection}/${reply.body.id ?? reply.body.doc?.id}`)).slug,
    ),
  )

/** Each writer's answer, then what each wrote and what is stored of it, for every round that lost one. */
function lostIn(answers: Reply[], kept: boolean[], round: number): string[] {
  const refused = answers.filter((answer) => answer.status !== 200)
  if (refused.length) return [`round ${round}: ${refused.map((r) => JSON.stringify(r.body))}`]
  return kept.every(Boolean) ? [] : [`round ${round}: kept ${JSON.stringify(kept)}`]
}

describe('updates of one item at once', () => {
  it('of a category, through the namespace and Payload REST: the description and the parent both stay', async () => {
    const parent = await createCategory({ name: unique('turns parent') })
    const lost: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await createCategory({ name: unique('turns') })
      const description = unique('described')
      const answers = await Promise.all([
        namespace(`/categories/${id}`, { description }),
        patch(`/event-categories/${id}`, { parent: parent.id }),
      ])
      const after = await stored(`/event-categories/${id}`)
      lost.push(
        ...lostIn(answers, [after.description === description, after.parent === parent.id], round),
      )
    }
    expect(lost).toEqual([])
  })

  it('of a tag, through GraphQL and the namespace: the name and the description both stay', async () => {
    const lost: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await createTag({ name: unique('turns tag') })
      const [name, description] = [unique('renamed'), unique('described')]
      const answers = await Promise.all([
        graphql(`mutation { updateEventTag(id: ${id}, data: { name: "${name}" }) { id } }`),
        namespace(`/tags/${id}`, { description }),
      ])
      const refused = answers[0]!.body.errors ? [{ ...answers[0]!, status: 500 }] : []
      const after = await stored(`/event-tags/${id}`)
      lost.push(
        ...lostIn(
          [...refused, answers[1]!],
          [after.name === name, after.description === description],
          round,
        ),
      )
    }
    expect(lost).toEqual([])
  })

  it('of an event, by the namespace and by a bulk edit of Payload REST (the admin list’s Edit): both stay', async () => {
    const lost: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await createEvent({ title: unique('turns bulk') })
      const title = unique('retitled')
      const answers = await Promise.all([
        namespace(`/events/${id}`, { title }),
        patch(`/events?where[id][equals]=${id}`, { featured: true }),
      ])
      const after = await stored(`/events/${id}`)
      lost.push(...lostIn(answers, [after.title === title, after.featured === true], round))
    }
    expect(lost).toEqual([])
  })

  it("of a series' past occurrence once the series ended, which keeps no version: both stay", async () => {
    const title = unique('turns series')
    const first = new Date(Date.now() - 40 * 86_400_000)
    const wall = (date: Date) => date.toISOString().slice(0, 10)
    const series = await namespace('/events', {
      title,
      start_date: `${wall(first)} 10:00:00`,
      end_date: `${wall(first)} 11:00:00`,
      status: 'publish',
      recurrence: `RRULE:FREQ=DAILY;COUNT=${ROUNDS + 1}`,
    })
    expect(series.status, JSON.stringify(series.body)).toBe(201)
    expect((await namespace(`/events/${series.body.id}`, { recurrence: '' })).status).toBe(200)
    const { docs } = (
      await call(`/api/events?where[title][equals]=${encodeURIComponent(title)}&depth=0&limit=50`, {
        token: admin,
      })
    ).body as { docs: { id: number }[] }
    const formerOccurrences = docs.map((doc) => doc.id).filter((id) => id !== series.body.id)
    expect(formerOccurrences).toHaveLength(ROUNDS)
    const venue = await createVenue({ name: unique('turns venue') })
    const lost: string[] = []
    for (const [round, id] of formerOccurrences.entries()) {
      const retitled = unique('retitled')
      const answers = await Promise.all([
        namespace(`/events/${id}`, { title: retitled }),
        patch(`/events/${id}`, { venue: venue.id }),
      ])
      const after = await stored(`/events/${id}`)
      lost.push(...lostIn(answers, [after.title === retitled, after.venue === venue.id], round))
    }
    expect(lost).toEqual([])
  })
})

describe('checks against stored data, made at once', () => {
  it('give two items created with one title, through two doors, slugs of their own', async () => {
    const clashes: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const title = unique('Jazz Night')
      const start = new Date(Date.now() + 30 * 86_400_000).toISOString()
      const created = await Promise.all([
        call(`${NS}/events`, {
          method: 'POST',
          token: admin,
          json: {
            title,
            start_date: start.slice(0, 10) + ' 20:00:00',
            end_date: start.slice(0, 10) + ' 21:00:00',
            status: 'publish',
          },
        }),
        call('/api/events', {
          method: 'POST',
          token: admin,
          json: { title, start, end: start, status: 'publish' },
        }),
      ])
      const slugs = await slugsOf('/events', created)
      if (new Set(slugs).size !== 2) clashes.push(`round ${round}: ${JSON.stringify(slugs)}`)
    }
    expect(clashes).toEqual([])
  })

  it('give an item whose slug would be taken by its number, and one named with that number, slugs of their own', async () => {
    const clashes: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const name = unique('Concert Hall')
      await createVenue({ name })
      const created = await Promise.all([
        // The namespace would answer a venue of this name with the one there (docs/api.md §6.5).
        call('/api/venues', { method: 'POST', token: admin, json: { name } }),
        call(`${NS}/venues`, { method: 'POST', token: admin, json: { venue: `${name} 2` } }),
      ])
      const slugs = await slugsOf('/venues', created)
      if (new Set(slugs).size !== 2) clashes.push(`round ${round}: ${JSON.stringify(slugs)}`)
    }
    expect(clashes).toEqual([])
  })

  it('refuse a rename to a slug another write takes while the rename waits for its turn', async () => {
    const renamed = await createEvent({ title: unique('Renamed ') })
    const other = await createEvent({ title: unique('Other ') })
    const wanted = unique('wanted-').toLowerCase()
    const answer = await changedWhileWaiting(
      process.env.DATABASE_URL!,
      { table: 'events', id: renamed.id },
      [
        `update events_locales set slug = $1 where _parent_id = $2 and _locale = 'en'`,
        [wanted, other.id],
      ],
      () => namespace(`/events/${renamed.id}`, { slug: wanted }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { slug: 'Another event has this slug in this language.' } },
    })
    expect((await stored(`/events/${renamed.id}`)).slug).toBe(renamed.slug)
  })

  it('delete a category beside a change of its parent, neither undone: the child moves to the parent stored last', async () => {
    const failed: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const [first, second] = await Promise.all([
        createCategory({ name: unique('first parent') }),
        createCategory({ name: unique('second parent') }),
      ])
      const doomed = await createCategory({ name: unique('doomed'), parent: first.id })
      const child = await createCategory({ name: unique('child'), parent: doomed.id })
      const [moved, deleted] = await Promise.all([
        patch(`/event-categories/${doomed.id}`, { parent: second.id }),
        call(`${NS}/categories/${doomed.id}?force=true`, { method: 'DELETE', token: admin }),
      ])
      const parent = (await stored(`/event-categories/${child.id}`)).parent
      // The change first: the delete moves the child to the second parent; else the first's.
      const expected = moved.status === 200 ? second.id : first.id
      if (deleted.status !== 200 || ![200, 404].includes(moved.status) || parent !== expected)
        failed.push(
          `round ${round}: change ${moved.status}, delete ${deleted.status} ${JSON.stringify(deleted.body)}, child under ${parent} (${first.id}, ${second.id})`,
        )
    }
    expect(failed).toEqual([])
  })

  it('make one category of a name sent twice at once: the other is refused term_exists', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = unique('twice')
      const answers = await Promise.all([0, 1].map(() => namespace('/categories', { name })))
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400])
      expect(answers.find((answer) => answer.status === 400)!.body.code).toBe('term_exists')
    }
  })

  it('make one venue of an inline venue sent by two events at once', async () => {
    const venue = unique('Inline hall')
    const start = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const answers = await Promise.all(
      [0, 1].map(() =>
        namespace('/events', {
          title: unique('inline'),
          start_date: `${start} 20:00:00`,
          end_date: `${start} 21:00:00`,
          venue: { venue, address: '1 Main St', city: 'Lyon' },
        }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual([201, 201])
    const venues = answers.map((answer) => answer.body.venue?.id)
    expect(venues[0]).toBeDefined()
    expect(venues[1]).toBe(venues[0])
  })

  it('keep a category from being below itself, through Payload REST and two namespace writes at once', async () => {
    const [a, b] = await Promise.all([
      createCategory({ name: unique('tree a') }),
      createCategory({ name: unique('tree b') }),
    ])
    expect((await patch(`/event-categories/${a.id}`, { parent: b.id })).status).toBe(200)
    const loop = await patch(`/event-categories/${b.id}`, { parent: a.id })
    expect(loop.status).toBe(400)
    expect(JSON.stringify(loop.body)).toContain('A category cannot be below itself.')
    for (let round = 0; round < ROUNDS; round++) {
      const [c, d] = await Promise.all([
        createCategory({ name: unique('tree c') }),
        createCategory({ name: unique('tree d') }),
      ])
      const answers = await Promise.all([
        namespace(`/categories/${c.id}`, { parent: d.id }),
        namespace(`/categories/${d.id}`, { parent: c.id }),
      ])
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400])
      const parents = await Promise.all(
        [c.id, d.id].map(async (id) => (await stored(`/event-categories/${id}`)).parent),
      )
      expect(parents.filter((parent) => parent !== null && parent !== undefined)).toHaveLength(1)
    }
  })
})
