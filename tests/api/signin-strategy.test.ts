/**
 * Signing in with a token stays Payload's, now that the users collection's own strategy signs callers
 * in (a verified token kept per process, the user and their session read by one statement every
 * request): a signed-in list is the signed-in caller's; a logout, a session ended elsewhere or a user
 * deleted ends the token's access on the very next request; an expired, forged or unversioned token
 * is anonymous; an API key still signs in, before a token the same request carries.
 */
import { decodeJwt } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique, userWithRole, type TestUser } from '../support/api'
import { testDatabase } from '../support/database'
import { createEvent } from '../support/fixtures'
import { resigned, secret } from '../support/tokens'

const db = testDatabase()

let draft: { id: number; title: string }

beforeAll(async () => {
  const title = unique('signindraft')
  const created = await createEvent({ title, status: 'draft' })
  draft = { id: created.id as number, title }
}, 120_000)

let made = 0
/** The draft's single read and a list that holds it, each a URL of its own so no kept answer serves it. */
const readDraft = (headers: Record<string, string>) =>
  call(`${NS}/events/${draft.id}?_=${++made}`, { headers })
const listDrafts = (headers: Record<string, string>) =>
  call(`${NS}/events?status=draft&search=${draft.title}&_=${++made}`, { headers })
const me = async (headers: Record<string, string>) =>
  (await call<{ user: { id: number } | null }>(`/api/users/me?_=${++made}`, { headers })).body.user

const bearer = (token: string) => ({ Authorization: `JWT ${token}` })

/** Whether `headers` sign in as `user`, through the namespace and Payload's REST alike. */
async function signedInAs(headers: Record<string, string>, user: TestUser): Promise<boolean> {
  const [single, self] = await Promise.all([readDraft(headers), me(headers)])
  expect(single.status === 200).toBe(self?.id === user.id)
  return single.status === 200
}

describe('the signed-in list', () => {
  it("is the signed-in editor's, and anonymous without credentials", async () => {
    const editor = await userWithRole('editor')
    const list = await listDrafts(bearer(editor.token))
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    expect(JSON.stringify(list.body)).toContain(draft.title)
    expect(await signedInAs(bearer(editor.token), editor)).toBe(true)
    expect((await readDraft({})).status).not.toBe(200)
    expect(JSON.stringify((await listDrafts({})).body)).not.toContain(draft.title)
  })

  it('signs in by the admin cookie too, as Payload reads it', async () => {
    const editor = await userWithRole('editor')
    const cookie = {
      Cookie: `other=1; payload-token=${editor.token}`,
      'Sec-Fetch-Site': 'same-origin',
    }
    expect(await signedInAs(cookie, editor)).toBe(true)
  })

  it('takes at most 2 queries, signed in', async () => {
    const editor = await userWithRole('editor')
    // The bench's (i): the default list, made afresh for the editor each time, once warm as in
    // read-query-count.test.ts (what is kept per content revision, such as the settings, is known).
    expect((await call(`${NS}/events?_=${++made}`, { token: editor.token })).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const list = await call(`${NS}/events?_=${++made}`, { token: editor.token })
      expect(list.status).toBe(200)
      expect(Number(list.headers.get('X-Query-Count'))).toBeGreaterThan(0)
      expect(Number(list.headers.get('X-Query-Count'))).toBeLessThanOrEqual(2)
    }
  })
})

describe('access ends at once', () => {
  it('after a logout: that session only, not the same user’s other one', async () => {
    const editor = await userWithRole('editor')
    const other = await call('/api/users/login', {
      method: 'POST',
      json: { email: editor.email, password: editor.password },
    })
    const otherToken = other.body.token as string
    expect(await signedInAs(bearer(editor.token), editor)).toBe(true)
    expect(await signedInAs(bearer(otherToken), editor)).toBe(true)
    const logout = await call('/api/users/logout', { method: 'POST', token: editor.token })
    expect(logout.status).toBe(200)
    expect(await signedInAs(bearer(editor.token), editor)).toBe(false)
    expect((await listDrafts(bearer(editor.token))).status).not.toBe(200)
    expect(await signedInAs(bearer(otherToken), editor)).toBe(true)
  })

  it('when the session ends in the database, as another instance ends it', async () => {
    const editor = await userWithRole('editor')
    expect(await signedInAs(bearer(editor.token), editor)).toBe(true)
    const { sid } = decodeJwt(editor.token) as { sid: string }
    const ended = await db.query('delete from users_sessions where id = $1', [sid])
    expect(ended.rowCount).toBe(1)
    expect(await signedInAs(bearer(editor.token), editor)).toBe(false)
  })

  it('when the user is deleted', async () => {
    const editor = await userWithRole('editor')
    expect(await signedInAs(bearer(editor.token), editor)).toBe(true)
    const deleted = await call(`/api/users/${editor.id}`, {
      method: 'DELETE',
      token: await asAdmin(),
    })
    expect(deleted.status).toBe(200)
    expect(await signedInAs(bearer(editor.token), editor)).toBe(false)
  })

  it('when the password changes: every other session of the user, the one that changed it kept', async () => {
    const editor = await userWithRole('editor')
    const other = (
      await call('/api/users/login', {
        method: 'POST',
        json: { email: editor.email, password: editor.password },
      })
    ).body.token as string
    expect(await signedInAs(bearer(other), editor)).toBe(true)
    const changed = await call(`/api/users/${editor.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { password: `${editor.password}-new` },
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(await signedInAs(bearer(editor.token), editor)).toBe(true)
    expect(await signedInAs(bearer(other), editor)).toBe(false)
  })

  it('when the password is reset from the mailed link: every session of the user', async () => {
    const editor = await userWithRole('editor')
    const asked = await call('/api/users/forgot-password', {
      method: 'POST',
      json: { email: editor.email },
    })
    expect(asked.status).toBe(200)
    const { rows } = await db.query('select reset_password_token from users where id = $1', [
      editor.id,
    ])
    const reset = await call('/api/users/reset-password', {
      method: 'POST',
      json: { token: rows[0].reset_password_token, password: `${editor.password}-reset` },
    })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)
    expect(await signedInAs(bearer(editor.token), editor)).toBe(false)
    // The token the reset answers with is the new session's.
    expect(await signedInAs(bearer(reset.body.token as string), editor)).toBe(true)
  })

  it('when the role changes, the next request has the new one', async () => {
    const editor = await userWithRole('editor')
    expect(await signedInAs(bearer(editor.token), editor)).toBe(true)
    const demoted = await call(`/api/users/${editor.id}`, {
      method: 'PATCH',
      token: await asAdmin(),
      json: { role: 'subscriber' },
    })
    expect(demoted.status).toBe(200)
    expect((await readDraft(bearer(editor.token))).status).not.toBe(200)
    expect((await me(bearer(editor.token)))?.id).toBe(editor.id)
  })
})

describe('tokens refused', () => {
  it('a token that expires while kept is refused once expired', async () => {
    const editor = await userWithRole('editor')
    const now = Math.floor(Date.now() / 1000)
    // Long enough to be read while valid on a slow machine; then waited out to the second after.
    const exp = now + 6
    const brief = await resigned(editor.token, { iat: now, exp })
    expect(await signedInAs(bearer(brief), editor)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, (exp + 1) * 1000 - Date.now()))
    expect(await signedInAs(bearer(brief), editor)).toBe(false)
  })

  it('an expired, a forged, an unversioned and a not-yet-valid token', async () => {
    const editor = await userWithRole('editor')
    const now = Math.floor(Date.now() / 1000)
    const refused = await Promise.all([
      resigned(editor.token, { iat: now - 60, exp: now - 1 }),
      resigned(editor.token, {}, undefined, `${secret()}-forged`),
      resigned(editor.token, {}, {}),
      resigned(editor.token, { nbf: now + 600 }),
      resigned(editor.token, { collection: 'events' }),
    ])
    for (const token of refused) {
      expect(await signedInAs(bearer(token), editor), token).toBe(false)
      expect((await listDrafts(bearer(token))).status).not.toBe(200)
    }
    expect(await signedInAs(bearer(await resigned(editor.token, {})), editor)).toBe(true)
  })
})

describe('API keys', () => {
  it('sign in, and win over a token the same request carries', async () => {
    const apiKey = unique('key')
    const email = `${unique('keyed')}@calendar.test`
    const created = await call('/api/users', {
      method: 'POST',
      token: await asAdmin(),
      json: { email, password: `password-${apiKey}`, role: 'editor', enableAPIKey: true, apiKey },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const keyed = { id: created.body.doc.id as number } as TestUser
    const byKey = { Authorization: `users API-Key ${apiKey}` }
    expect(await signedInAs(byKey, keyed)).toBe(true)
    const subscriber = await userWithRole('subscriber')
    const both = {
      ...byKey,
      Cookie: `payload-token=${subscriber.token}`,
      'Sec-Fetch-Site': 'same-origin',
    }
    expect(await signedInAs(both, keyed)).toBe(true)
    expect(await signedInAs({ Authorization: 'users API-Key nothing' }, keyed)).toBe(false)
  })
})
