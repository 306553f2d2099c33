/**
 * The admin's sign-in cookie counts for requests of the site's own pages only: a form or a script of
 * another origin (a sibling host, another port) sends it along, and must write nothing as the
 * signed-in user, through any door, whether `SERVER_URL` is set (the test server) or not (a second
 * instance without it, where Payload's own CSRF rule believed the cookie from any origin).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE_URL, NS, call, unique, userWithRole, type TestUser } from '../support/api'
import { startSecondInstance, type Instance } from '../support/secondInstance'

let author: TestUser
let withoutServerUrl: Instance

beforeAll(async () => {
  author = await userWithRole('author')
  withoutServerUrl = await startSecondInstance({ SERVER_URL: '' })
}, 240_000)

afterAll(async () => {
  await withoutServerUrl?.stop()
})

/**
 * A write through each door with the author's cookie: the namespace's and Payload REST's as a plain
 * HTML form sends them (no preflight), GraphQL's as a page's script of a sibling host would.
 */
function doors(base: string, cookie: string, headers: Record<string, string>) {
  const sent = (path: string, body: BodyInit) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { Cookie: cookie, ...headers }, body })
  return {
    namespace: (title: string) =>
      sent(
        `${NS}/events`,
        new URLSearchParams({
          title,
          start_date: '2031-03-01 10:00:00',
          end_date: '2031-03-01 11:00:00',
        }),
      ),
    'Payload REST': (title: string) => {
      const form = new FormData()
      form.set(
        '_payload',
        JSON.stringify({ title, start: '2031-03-02T10:00:00Z', end: '2031-03-02T11:00:00Z' }),
      )
      return sent('/api/events', form)
    },
    'Payload GraphQL': (title: string) =>
      sent(
        '/api/graphql',
        new Blob(
          [
            JSON.stringify({
              query: `mutation { createEvent(data: { title: ${JSON.stringify(title)}, start: "2031-03-03T10:00:00Z", end: "2031-03-03T11:00:00Z", status: draft }) { id } }`,
            }),
          ],
          { type: 'application/json' },
        ),
      ),
  }
}

async function stored(title: string): Promise<number> {
  const listed = await call(
    `/api/events?where[title][equals]=${encodeURIComponent(title)}&depth=0`,
    {
      token: author.token,
    },
  )
  return listed.body.totalDocs as number
}

describe.each([
  ['SERVER_URL set', () => BASE_URL],
  ['SERVER_URL unset', () => withoutServerUrl.base],
])('with %s', (_, base) => {
  it('a write another origin sends with the sign-in cookie is anonymous, through every door', async () => {
    const cookie = `payload-token=${author.token}`
    for (const [door, write] of Object.entries(
      doors(base(), cookie, { Origin: 'http://other.example:8080', 'Sec-Fetch-Site': 'same-site' }),
    )) {
      const title = unique(`cross-origin ${door}`)
      const reply = await write(title)
      const answer = await reply.text()
      // GraphQL answers a refused mutation 200 with its error.
      const refused =
        door === 'Payload GraphQL'
          ? answer.includes('You are not allowed to perform this action.')
          : reply.status === 401 || reply.status === 403
      expect({ door, refused, answer }).toEqual({ door, refused: true, answer })
      expect({ door, stored: await stored(title) }).toEqual({ door, stored: 0 })
    }
    // Without Origin, a browser's fetch metadata says where the request came from.
    const title = unique('cross-site namespace')
    const reply = await doors(base(), cookie, { 'Sec-Fetch-Site': 'cross-site' }).namespace(title)
    expect(reply.status).toBe(401)
    expect(await stored(title)).toBe(0)
    const me = await fetch(`${base()}/api/users/me`, {
      headers: { Cookie: cookie, Origin: 'https://evil.example' },
    })
    expect((await me.json()).user).toBeNull()
  })

  it("the same writes from the site's own origin are the signed-in user's", async () => {
    const cookie = `other=1; payload-token=${author.token}`
    const own = new URL(base()).origin
    for (const [door, write] of Object.entries(
      doors(base(), cookie, { Origin: own, 'Sec-Fetch-Site': 'same-origin' }),
    )) {
      const title = unique(`own origin ${door}`)
      const reply = await write(title)
      const answer = await reply.text()
      expect({ door, status: reply.status, answer }).toMatchObject({
        door,
        status: door === 'Payload GraphQL' ? 200 : 201,
      })
      expect({ door, stored: await stored(title), answer }).toEqual({ door, stored: 1, answer })
    }
  })
})

describe('the sign-in cookie', () => {
  it('is Secure when the site is served over HTTPS (SERVER_URL), and not over HTTP', async () => {
    const signIn = async (base: string) =>
      (
        await fetch(`${base}/api/users/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: author.email, password: author.password }),
        })
      ).headers.getSetCookie()
    const overHttps = await startSecondInstance({ SERVER_URL: 'https://calendar.test' })
    try {
      expect(
        (await signIn(overHttps.base)).find((cookie) => cookie.startsWith('payload-token=')),
      ).toMatch(/;\s*Secure/i)
    } finally {
      await overHttps.stop()
    }
    expect(
      (await signIn(BASE_URL)).find((cookie) => cookie.startsWith('payload-token=')),
    ).not.toMatch(/;\s*Secure/i)
  }, 240_000)
})
