/** A small client for the running service: what a website or an integrator would do over HTTP. */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { expect } from 'vitest'

export const BASE_URL = process.env.CAL_TEST_URL ?? 'http://127.0.0.1:3000'
export const NS = '/api/cal/events/v1'
/** Absolute URL of the namespace root as the server writes it in responses (SERVER_URL is the test URL). */
export const ROOT = `${BASE_URL}${NS}`

export type Call = {
  method?: string
  token?: string
  json?: unknown
  form?: Record<string, string>
  body?: BodyInit
  headers?: Record<string, string>
}

export type Reply<T = any> = { status: number; headers: Headers; body: T }

export async function call<T = any>(path: string, options: Call = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.Authorization = `JWT ${options.token}`
  let body = options.body
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.json)
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(options.form).toString()
  }
  const method = options.method ?? 'GET'
  const send = () => fetch(BASE_URL + path, { method, headers, body, redirect: 'manual' })
  const response = await send().catch((error: unknown) => {
    // A kept-alive connection the server closed as it was reused (once in CI, 2026-11-29): a read
    // is sent again, as a browser would; anything else, and a write, fails the test.
    if ((method === 'GET' || method === 'HEAD') && resetConnection(error)) return send()
    throw error
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    // not JSON: the raw text is what the test sees
  }
  return { status: response.status, headers: response.headers, body: parsed as T }
}

/** A request of any method (fetch refuses TRACE), to this server or another's `base`, its answer's text as it came. */
export function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  base = BASE_URL,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(path, base)
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, text }),
        )
      },
    )
    request.on('error', reject)
    request.end()
  })
}

/** A fetch that failed because the connection was reset before any answer came. */
function resetConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET'
}

const ADMIN = { email: 'admin@calendar.test', password: 'admin-password-1' }
let adminToken: Promise<string> | undefined

async function login(email: string, password: string): Promise<string | undefined> {
  const reply = await call('/api/users/login', { method: 'POST', json: { email, password } })
  return reply.status === 200 ? (reply.body.token as string) : undefined
}

/** The administrator's token; the first caller registers the administrator through first-register. */
export function asAdmin(): Promise<string> {
  adminToken ??= (async () => {
    const existing = await login(ADMIN.email, ADMIN.password)
    if (existing) return existing
    const reply = await call('/api/users/first-register', { method: 'POST', json: ADMIN })
    if (reply.status >= 300)
      throw new Error(`first-register failed: ${reply.status} ${JSON.stringify(reply.body)}`)
    const token = await login(ADMIN.email, ADMIN.password)
    if (!token) throw new Error('administrator cannot log in')
    return token
  })()
  return adminToken
}

export type TestUser = { id: number; email: string; password: string; token: string; role: string }

/** A fresh user of the given role, created by the administrator and logged in. */
export async function userWithRole(role: string): Promise<TestUser> {
  const email = `${role}-${randomUUID().slice(0, 8)}@calendar.test`
  const password = 'password-' + randomUUID()
  const created = await call('/api/users', {
    method: 'POST',
    token: await asAdmin(),
    json: { email, password, role },
  })
  if (created.status !== 201)
    throw new Error(`creating a ${role} failed: ${created.status} ${JSON.stringify(created.body)}`)
  const token = await login(email, password)
  if (!token) throw new Error(`${role} cannot log in`)
  return { id: created.body.doc.id as number, email, password, token, role }
}

/** One fresh user of each signed-in role below the administrator, created at once. */
export async function usersOfEveryRole(): Promise<
  Record<'editor' | 'author' | 'contributor' | 'subscriber', TestUser>
> {
  const [editor, author, contributor, subscriber] = await Promise.all([
    userWithRole('editor'),
    userWithRole('author'),
    userWithRole('contributor'),
    userWithRole('subscriber'),
  ])
  return { editor, author, contributor, subscriber }
}

/** An id no record of the test database reaches. */
export const NO_SUCH_ID = 2_000_000_000

/**
 * The administrator's token and one fresh user of each other role: what a file that checks every
 * role awaits before its tests (`const { admin, editor } = await everyRole()`).
 */
export async function everyRole() {
  const [admin, users] = await Promise.all([asAdmin(), usersOfEveryRole()])
  return { admin, ...users }
}

/** A word no other test uses, to find exactly what this test made. */
/**
 * Runs the calendar's jobs queue, as the server's own polling does, until `read` gives what the test
 * waits for: that polling may take a due job first and finish it a moment after the test's run returns.
 */
export function afterQueueRuns<T>(token: string, read: () => Promise<T>, timeout = 20_000) {
  return expect.poll(
    async () => {
      expect((await call('/api/payload-jobs/run?queue=calendar', { token })).status).toBe(200)
      return read()
    },
    { timeout, interval: 250 },
  )
}

export function unique(prefix = 'x'): string {
  return `${prefix}${randomUUID().replace(/-/g, '').slice(0, 12)}`
}

/** A 4×3 red PNG, small enough to inline. */
const PNG_4X3 =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWP4z8AARwgWOgcA9TEL9UV+YsgAAAAASUVORK5CYII='

/** Uploads a small PNG into Payload's `media` collection as the administrator; returns the media document. */
export async function uploadImage(
  name = unique('img'),
): Promise<{ id: number; url: string; filename: string }> {
  const form = new FormData()
  form.append(
    'file',
    new Blob([Buffer.from(PNG_4X3, 'base64')], { type: 'image/png' }),
    /\.png$/.test(name) ? name : `${name}.png`,
  )
  form.append('_payload', JSON.stringify({ alt: name }))
  const reply = await call('/api/media', { method: 'POST', token: await asAdmin(), body: form })
  if (reply.status !== 201)
    throw new Error(`uploading media failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body.doc as { id: number; url: string; filename: string }
}
