/**
 * A term's `count` (published events that use it) is kept by the database as events are written,
 * whatever writes them: these tests move events every way a site can and read the counts back.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique } from '../support/api'
import { createCategory, createEvent, createTag, ns, qs } from '../support/fixtures'
import { patchDoc } from '../support/linkedFixtures'
import { api, eventBody } from '../support/writeFixtures'

type Id = { id: number }

const categoryCount = async (term: Id) => (await ns(`/categories/${term.id}`)).body.count as number
const tagCount = async (term: Id) => (await ns(`/tags/${term.id}`)).body.count as number

async function deleteDoc(collection: string, id: number): Promise<void> {
  const reply = await call(`/api/${collection}/${id}`, { method: 'DELETE', token: await asAdmin() })
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200)
}

describe('term counts follow every write', () => {
  const tag = unique('tkeep')
  let first: Id
  let second: Id
  let label: Id

  beforeAll(async () => {
    first = await createCategory({ name: `${tag} first` })
    second = await createCategory({ name: `${tag} second` })
    label = await createTag({ name: `${tag} label` })
  })

  it('moves both terms when an event changes category, and only published events count', async () => {
    const event = await createEvent({
      title: unique('ev'),
      categories: [first.id],
      tags: [label.id],
    })
    await createEvent({
      title: unique('ev'),
      status: 'draft',
      categories: [first.id, second.id],
      tags: [label.id],
    })
    expect([
      await categoryCount(first),
      await categoryCount(second),
      await tagCount(label),
    ]).toEqual([1, 0, 1])

    await patchDoc('events', event.id, { categories: [second.id] })
    expect([
      await categoryCount(first),
      await categoryCount(second),
      await tagCount(label),
    ]).toEqual([0, 1, 1])

    await patchDoc('events', event.id, { status: 'private', categories: [first.id, second.id] })
    expect([
      await categoryCount(first),
      await categoryCount(second),
      await tagCount(label),
    ]).toEqual([0, 0, 0])

    await patchDoc('events', event.id, { status: 'publish' })
    expect([
      await categoryCount(first),
      await categoryCount(second),
      await tagCount(label),
    ]).toEqual([1, 1, 1])

    await deleteDoc('events', event.id)
    expect([
      await categoryCount(first),
      await categoryCount(second),
      await tagCount(label),
    ]).toEqual([0, 0, 0])
  })

  it('counts an event that names a term twice once', async () => {
    const twice = await createCategory({ name: `${tag} twice` })
    const reply = await call('/api/events', {
      method: 'POST',
      token: await asAdmin(),
      json: {
        title: unique('ev'),
        status: 'publish',
        start: '2032-01-05T10:00:00.000Z',
        end: '2032-01-05T11:00:00.000Z',
        categories: [twice.id, twice.id],
      },
    })
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(201)
    expect(await categoryCount(twice)).toBe(1)
    await patchDoc('events', reply.body.doc.id, { categories: [twice.id] })
    expect(await categoryCount(twice)).toBe(1)
    await patchDoc('events', reply.body.doc.id, { categories: [] })
    expect(await categoryCount(twice)).toBe(0)
  })

  it('follows writes through the namespace: create, trash, and a permanent delete', async () => {
    const token = await asAdmin()
    const term = await createCategory({ name: `${tag} namespace` })
    const created = await api('/events', {
      method: 'POST',
      token,
      json: eventBody({ status: 'publish', categories: [term.id] }),
    })
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201)
    const kept = await api('/events', {
      method: 'POST',
      token,
      json: eventBody({ status: 'publish', categories: [term.id] }),
    })
    expect(kept.status).toBe(201)
    expect(await categoryCount(term)).toBe(2)

    expect((await api(`/events/${created.body.id}`, { method: 'DELETE', token })).status).toBe(200)
    expect(await categoryCount(term)).toBe(1)
    await deleteDoc('events', created.body.id)
    expect(await categoryCount(term)).toBe(1)
    await deleteDoc('events', kept.body.id)
    expect(await categoryCount(term)).toBe(0)
  })

  it('adds up concurrent writes exactly, and agrees with the events listed under the term', async () => {
    const term = await createCategory({ name: `${tag} busy` })
    const events = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createEvent({
          title: unique('busy'),
          start: `2032-02-${String(i + 1).padStart(2, '0')}T09:00:00.000Z`,
          categories: [term.id],
        }),
      ),
    )
    await Promise.all(
      events.slice(0, 5).map((event) => patchDoc('events', event.id, { status: 'draft' })),
    )
    expect(await categoryCount(term)).toBe(7)
    const listed = await ns(
      `/events?${qs({ categories: term.id, start_date: '2032-01-01', end_date: '2032-12-31', per_page: 50 })}`,
    )
    expect(listed.body.total).toBe(7)
    for (const event of listed.body.events)
      expect(event.categories.find((item: Id) => item.id === term.id).count).toBe(7)
  })

  it('shows a term in hide_empty lists exactly while a published event uses it', async () => {
    const term = await createCategory({ name: `${tag} shown` })
    const shown = async () =>
      (await ns(`/categories?${qs({ search: `${tag} shown`, hide_empty: 1 })}`)).body.categories
        .length
    expect(await shown()).toBe(0)
    const event = await createEvent({ title: unique('ev'), categories: [term.id] })
    expect(await shown()).toBe(1)
    await patchDoc('events', event.id, { status: 'pending' })
    expect(await shown()).toBe(0)
  })
})
