/**
 * Version history (docs/api.md §21): every save of an event keeps a version with its editor; editors
 * read them and restore one, and what is restored is what every door serves.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, userWithRole } from '../support/api'
import { api, createEventAs } from '../support/writeFixtures'

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

const versionsOf = (id: number, token?: string) =>
  call(`/api/events/versions?where[parent][equals]=${id}&sort=updatedAt&depth=0`, { token })

describe('versions of an event', () => {
  it('are kept at each save with who saved it, and a restored one is what the namespace serves', async () => {
    const editor = await userWithRole('editor')
    const event = await createEventAs(admin, { status: 'publish', title: 'First title' })
    expect(
      (
        await api(`/events/${event.id}`, {
          method: 'POST',
          token: editor.token,
          json: { title: 'Second title' },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await api(`/events/${event.id}`, {
          method: 'POST',
          token: admin,
          json: { title: 'Third title' },
        })
      ).status,
    ).toBe(200)

    const versions = (await versionsOf(event.id, editor.token)).body.docs as {
      id: number
      version: { title: string; editedBy: number }
    }[]
    expect(versions.map((entry) => entry.version.title)).toEqual([
      'First title',
      'Second title',
      'Third title',
    ])
    const adminId = (await call('/api/users/me', { token: admin })).body.user.id
    expect(versions.map((entry) => entry.version.editedBy)).toEqual([adminId, editor.id, adminId])

    const restored = await call(`/api/events/versions/${versions[0]!.id}`, {
      method: 'POST',
      token: editor.token,
    })
    expect(restored.status, JSON.stringify(restored.body)).toBe(200)
    expect((await api(`/events/${event.id}`)).body.title).toBe('First title')
    // Restoring is a save like any other: it is in the history too.
    expect((await versionsOf(event.id, admin)).body.docs.at(-1).version.title).toBe('First title')
  })

  it('are the last 50 of an item, whichever door saves it', async () => {
    const event = await createEventAs(admin, { status: 'publish', title: 'Save 0' })
    for (let save = 1; save <= 50; save++) {
      const reply = await api(`/events/${event.id}`, {
        method: 'PATCH',
        token: admin,
        json: { title: `Save ${save}` },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    }
    const throughPayload = await call(`/api/events/${event.id}`, {
      method: 'PATCH',
      token: admin,
      json: { title: 'Save 51' },
    })
    expect(throughPayload.status, JSON.stringify(throughPayload.body)).toBe(200)
    const kept = await call(
      `/api/events/versions?where[parent][equals]=${event.id}&sort=updatedAt&depth=0&limit=100`,
      { token: admin },
    )
    expect(kept.body.totalDocs).toBe(50)
    expect(
      kept.body.docs.map((entry: { version: { title: string } }) => entry.version.title),
    ).toEqual(Array.from({ length: 50 }, (_, index) => `Save ${index + 2}`))
  })

  it('are read by those who edit everyone’s items only', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    const author = await userWithRole('author')
    const subscriber = await userWithRole('subscriber')
    for (const token of [undefined, author.token, subscriber.token])
      expect((await versionsOf(event.id, token)).status).toBe(403)
  })
})
