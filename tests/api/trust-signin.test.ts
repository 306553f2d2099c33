/**
 * Sign-in and client identity (docs/operations.md, "Proxies and client addresses", "Sign-in
 * throttling", "Load shedding"; docs/api.md §1, §4.4): every door that signs in is throttled alike and
 * atomically, the owner is never locked out by others, a client cannot pick its own address or origin,
 * a forged credential does not jump the load shedder, absolute URLs follow the host the caller reached,
 * and a signed-in caller can follow every link it is given.
 *
 * The main test server stands behind the tests as behind a proxy (`TRUSTED_PROXY_HOPS=1`, tests/run.ts),
 * so `X-Forwarded-For` names the client there. The other instance here has no proxy and no
 * `SERVER_URL`, and is reached from loopback addresses of this file's own, so that its address counts
 * are no other test's.
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique, userWithRole, type TestUser } from '../support/api'
import { testDatabase } from '../support/database'
import { changeSettings, follow, restoreSettings } from '../support/fixtures'
import { createEventAs, createOrganizerAs, createVenueAs } from '../support/writeFixtures'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { failUntilWaitOf } from '../support/throttle'

const db = testDatabase()
let direct: Instance
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
  direct = await startSecondInstance({
    TRUSTED_PROXY_HOPS: '0',
    SERVER_URL: '',
    SHED_QUEUE_MS: '1',
    SHED_MIN_IN_FLIGHT: '4',
  })
}, 180_000)

afterAll(async () => {
  await direct?.stop()
})

type Raw = { status: number; headers: http.IncomingHttpHeaders; text: string; json: () => any }

/** A request to the direct instance as a client at `from` (a loopback address) sends it, `Host` and all. */
function raw(
  path: string,
  options: { from: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Raw> {
  const url = new URL(direct.base)
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        localAddress: options.from,
        headers: options.headers,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            json: () => JSON.parse(text),
          })
        })
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

const restLogin = (email: string, password: string, address: string) =>
  call('/api/users/login', {
    method: 'POST',
    json: { email, password },
    headers: { 'X-Forwarded-For': address },
  })

const graphqlLogin = (email: string, password: string, address: string) =>
  call('/api/graphql', {
    method: 'POST',
    json: {
      query:
        'mutation ($email: String!, $password: String!) { loginUser(email: $email, password: $password) { token } }',
      variables: { email, password },
    },
    headers: { 'X-Forwarded-For': address },
  })

describe('sign-in throttling', () => {
  let owner: TestUser

  beforeAll(async () => {
    owner = await userWithRole('author')
  })

  it('counts GraphQL loginUser with REST logins: the same failures, the same refusal', async () => {
    const attacker = '203.0.113.71'
    // Wrong passwords over GraphQL alone, until the wait asked for is long enough to test the other door within it.
    const { checked } = await failUntilWaitOf(4, async (n) => {
      const wrong = await graphqlLogin(owner.email, `wrong-${n}`, attacker)
      expect(wrong.body.data?.loginUser ?? null).toBeNull()
      const refused = /Too many failed sign-ins: try again in (\d+) s/.exec(
        JSON.stringify(wrong.body.errors),
      )
      return refused ? Number(refused[1]) : 0
    })
    expect(checked).toBeGreaterThanOrEqual(3)
    const graphql = await graphqlLogin(owner.email, owner.password, attacker)
    expect(graphql.body.data?.loginUser ?? null).toBeNull()
    expect(JSON.stringify(graphql.body.errors)).toContain('Too many failed sign-ins')
    const rest = await restLogin(owner.email, owner.password, attacker)
    expect(rest.status).toBe(429)
    expect(Number(rest.headers.get('Retry-After'))).toBeGreaterThan(0)

    // From an address that has not failed, the owner signs in through either door.
    expect(
      (await graphqlLogin(owner.email, owner.password, '198.51.100.71')).body.data.loginUser.token,
    ).toBeTruthy()
    expect((await restLogin(owner.email, owner.password, '198.51.100.72')).status).toBe(200)
  })

  it('takes as long to refuse an address no account has as a wrong password, so its time tells nothing', async () => {
    // Each pair from an address of its own, within the free attempts; taken in turns, so a busy
    // machine slows both alike.
    const known: number[] = []
    const unknown: number[] = []
    for (let n = 0; n < 5; n++) {
      for (const [email, times] of [
        [owner.email, known],
        [`nobody-${n}-${owner.email}`, unknown],
      ] as const) {
        const started = performance.now()
        const reply = await restLogin(email, 'wrong-password', `203.0.113.${80 + n}`)
        times.push(performance.now() - started)
        expect(reply.status).toBe(401)
      }
    }
    const median = (times: number[]) => [...times].sort((a, b) => a - b)[2]!
    // Payload checked no password for an unknown address: 9–17 ms against 110–210.
    expect(median(unknown)).toBeGreaterThan(median(known) / 2)
  })

  it('checks no more passwords than it allows when the guesses come all at once', async () => {
    const attacker = '203.0.113.72'
    const started = Date.now()
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        restLogin(owner.email, `parallel-${n}`, attacker).then((reply) => reply.status),
      ),
    )
    const seconds = (Date.now() - started) / 1000
    const checked = statuses.filter((status) => status === 401).length
    // Three free failures for the account on that address, then waits of 1 s, 2 s, 4 s…: one more check per wait that passed meanwhile.
    expect(checked).toBeGreaterThanOrEqual(3)
    expect(checked).toBeLessThanOrEqual(3 + Math.floor(Math.log2(1 + seconds)))
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true)
  })

  it('does not keep the owner out when many addresses fail on the account', async () => {
    for (let address = 1; address <= 6; address++) {
      for (let n = 0; n < 2; n++)
        expect(
          (await restLogin(owner.email, `spray-${n}`, `203.0.113.${100 + address}`)).status,
        ).toBe(401)
    }
    for (let n = 0; n < 3; n++) {
      const signIn = await restLogin(owner.email, owner.password, '198.51.100.73')
      expect(signIn.status, JSON.stringify(signIn.body)).toBe(200)
      expect(
        (await restLogin(owner.email, 'yet-another-guess', `203.0.113.${120 + n}`)).status,
      ).toBe(401)
    }
  })

  it('forgets failures and rate-limit buckets that no longer count when the pruning job runs', async () => {
    const stale = `address:${unique('stale-')}`
    const fresh = `address:${unique('fresh-')}`
    await db.query(
      `insert into calendar_login_failures (subject, failures, last_failure) values ($1, 7, now() - interval '2 hours'), ($2, 7, now())`,
      [stale, fresh],
    )
    await db.query(
      `insert into calendar_rate_buckets (subject, tokens, taken, updated_at) values ($1, 0, true, now() - interval '5 minutes'), ($2, 0, true, now())`,
      [`read:${stale}`, `read:${fresh}`],
    )
    const retention = Number((await call('/api/globals/settings')).body.changesRetentionDays ?? 30)
    // A changed retention queues the pruning job at once.
    const previous = await changeSettings({ changesRetentionDays: retention + 1 })
    try {
      expect((await call('/api/payload-jobs/run?queue=calendar', { token: admin })).status).toBe(
        200,
      )
      const failures = await db.query(
        `select subject from calendar_login_failures where subject in ($1, $2)`,
        [stale, fresh],
      )
      expect(failures.rows.map((row) => row.subject)).toEqual([fresh])
      const buckets = await db.query(
        `select subject from calendar_rate_buckets where subject in ($1, $2)`,
        [`read:${stale}`, `read:${fresh}`],
      )
      expect(buckets.rows.map((row) => row.subject)).toEqual([`read:${fresh}`])
    } finally {
      await restoreSettings(previous)
      await call('/api/payload-jobs/run?queue=calendar', { token: admin })
    }
  })
})

describe('without trusted proxies', () => {
  it('ignores a client-sent X-Forwarded-For: rotating values share the throttle of the real address', async () => {
    const statuses: number[] = []
    for (let n = 0; n < 14; n++) {
      const reply = await raw('/api/users/login', {
        from: '127.0.0.71',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.18.0.${n + 1}` },
        body: JSON.stringify({ email: `${unique('nobody-')}@calendar.test`, password: 'wrong' }),
      })
      statuses.push(reply.status)
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    // Ten free failures for the address, then waits: had each forged value been an address, all would be checked.
    expect(statuses.slice(10)).toContain(429)
  })

  it('builds absolute URLs on the Host the caller reached, never on a forged X-Forwarded-Host, and keeps each host its own answers', async () => {
    const venue = await createVenueAs(admin, { venue: unique('Hosted venue ') })
    for (let n = 0; n < 2; n++)
      await createEventAs(admin, {
        status: 'publish',
        venue: { id: venue.id },
        title: unique('Hosted '),
      })
    const list = `${NS}/events?per_page=1&venue=${venue.id}&start_date=2000-01-01&end_date=2031-01-01`
    const read = (host: string) =>
      raw(list, {
        from: '127.0.0.72',
        headers: { Host: host, 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
      })
    // Twice each, so the second is served from what the first left in the answer cache and the front door.
    for (const host of [
      'calendar.example',
      'other.example:8080',
      'calendar.example',
      'other.example:8080',
    ]) {
      const reply = await read(host)
      expect(reply.status, reply.text).toBe(200)
      const body = reply.json()
      expect(body.rest_url).toMatch(new RegExp(`^http://${host}${NS}/events/?\\?`))
      expect(body.next_rest_url).toMatch(new RegExp(`^http://${host}${NS}/events/?\\?`))
      expect(body.events[0].url).toMatch(new RegExp(`^http://${host}/`))
      expect(reply.text).not.toContain('evil.example')
    }
    const [one, two] = [await read('calendar.example'), await read('other.example:8080')]
    expect(one.headers.etag).toBeTruthy()
    expect(one.headers.etag).not.toBe(two.headers.etag)

    const feed = await raw(
      `${NS}/events.ics?venue=${venue.id}&start_date=2000-01-01&end_date=2031-01-01`,
      {
        from: '127.0.0.72',
        headers: { Host: 'calendar.example' },
      },
    )
    expect(feed.status).toBe(200)
    expect(feed.text).toMatch(/UID:\d+@calendar\.example/)

    // A port no URL may have: the server's own origin, not a 500.
    for (const path of [list, `${NS}/events.ics?venue=${venue.id}`, '/events/', '/sitemap.xml']) {
      const reply = await raw(path, {
        from: '127.0.0.72',
        headers: { Host: 'calendar.example:70000' },
      })
      expect(reply.status, `${path} ${reply.text.slice(0, 200)}`).toBe(200)
      expect(reply.text).not.toContain(':70000')
    }
  })

  it('sheds a write under overload whose Authorization header is forged, and lets a signed-in one through', async () => {
    const write = (authorization: string) =>
      raw(`${NS}/events`, {
        from: '127.0.0.74',
        method: 'POST',
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: unique('Forged '),
          start_date: '2031-03-01 10:00:00',
          end_date: '2031-03-01 11:00:00',
        }),
      })
    // Reads no cache can answer, with the forged writes among them, so that they arrive while the
    // instance is full. Whether it is full when they arrive is the machine's: on a busy one the
    // flood may fill it only after they came, so a round may shed none; three rounds at the most.
    const rounds: string[] = []
    let shed: Raw[] = []
    for (let round = 0; round < 3 && !shed.length; round++) {
      const flood: Promise<Raw>[] = []
      const forged: Promise<Raw>[] = []
      for (let n = 0; n < 200; n++) {
        if (n % 10 === 5) forged.push(write('JWT forged.token.here'))
        else
          flood.push(
            raw(`${NS}/events?per_page=20&search=${unique('busy')}`, { from: '127.0.0.73' }),
          )
      }
      const signedIn = write(`JWT ${admin}`)
      const [reads, forgedReplies] = await Promise.all([Promise.all(flood), Promise.all(forged)])
      shed = forgedReplies.filter((reply) => reply.status === 503)
      rounds.push(
        `reads shed ${reads.filter((reply) => reply.status === 503).length}, forged ${forgedReplies.map((reply) => reply.status).join(',')}`,
      )
      for (const reply of shed) expect(reply.json().code).toBe('rest_overloaded')
      // Those let in are refused by the namespace for what they are: no credentials.
      expect(
        forgedReplies.every(
          (reply) => reply.status === 503 || reply.status === 401 || reply.status === 403,
        ),
      ).toBe(true)
      expect((await signedIn).status).toBe(201)
    }
    expect(shed.length, rounds.join('; ')).toBeGreaterThan(0)
  })
})

describe('links a signed-in caller is given', () => {
  it('are followed to the last page by an editor, status=any and all', async () => {
    const editor = await userWithRole('editor')
    const venue = await createVenueAs(admin, { venue: unique('Paged venue ') })
    for (const status of ['publish', 'draft', 'pending'])
      await createEventAs(admin, { status, venue: { id: venue.id }, title: unique('Paged ') })
    for (let n = 0; n < 3; n++) {
      await createVenueAs(admin, { venue: unique('Paged venue ') })
      await createOrganizerAs(admin, { organizer: unique('Paged organizer ') })
    }
    for (const start of [
      `${NS}/events?per_page=1&venue=${venue.id}&start_date=2000-01-01&end_date=2031-01-01`,
      `${NS}/venues?per_page=2`,
      `${NS}/organizers?per_page=2`,
    ]) {
      let reply = await call(start, { token: editor.token })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body.rest_url).toContain('status=any')
      let pages = 1
      while (reply.body.next_rest_url) {
        reply = await follow(reply.body.next_rest_url as string, editor.token)
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        pages++
      }
      expect(pages, start).toBe(reply.body.total_pages)
      expect(pages, start).toBeGreaterThan(1)
    }
    const events = await call(
      `${NS}/events?per_page=5&venue=${venue.id}&start_date=2000-01-01&end_date=2031-01-01`,
      { token: editor.token },
    )
    expect(events.body.total).toBe(3)
    // The feed takes the same parameter for the same caller.
    const feed = await call(
      `${NS}/events.ics?status=any&venue=${venue.id}&start_date=2000-01-01&end_date=2031-01-01`,
      { token: editor.token },
    )
    expect(feed.status).toBe(200)
    expect(String(feed.body).match(/BEGIN:VEVENT/g)).toHaveLength(3)
    // Readers are given `publish` in their links, and still may not ask for more.
    const anonymous = await call(`${NS}/events?status=any`)
    expect(anonymous.status).toBe(400)
    expect(anonymous.body.code).toBe('rest_invalid_param')
  })
})
