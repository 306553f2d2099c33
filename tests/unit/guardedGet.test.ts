/**
 * The import's requests (src/network/guardedGet.ts): every hop of a redirect passes the address guard.
 * The test's server stands for a public site (its literal address is let through); every other address
 * is judged by the real guard with private addresses refused, as in production.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addressGuard, type AddressGuard } from '../../src/network/addressGuard'
import {
  AddressRefused,
  FetchError,
  guardedGet,
  guardedGetBytes,
} from '../../src/network/guardedGet'

let server: Server
let base: string
let guard: AddressGuard
const seen: Record<string, string | undefined> = {}

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    seen[url.pathname] = request.headers.authorization
    if (url.pathname === '/to-private')
      return response.writeHead(302, { Location: 'http://10.1.2.3/secret' }).end()
    if (url.pathname === '/to-loopback-name')
      return response
        .writeHead(301, { Location: `http://localhost:${url.port || port()}/ok` })
        .end()
    if (url.pathname === '/to-self') return response.writeHead(307, { Location: '/ok' }).end()
    if (url.pathname === '/loop') return response.writeHead(302, { Location: '/loop' }).end()
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('fine')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${port()}`
  const strict = addressGuard(() => false)
  guard = {
    lookup: strict.lookup,
    refusesLiteral: (url) => url.host !== new URL(base).host && strict.refusesLiteral(url),
  }
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const port = () => (server.address() as AddressInfo).port

describe('guardedGet', () => {
  it('follows a redirect within the site, with the credentials', async () => {
    const answer = await guardedGet(`${base}/to-self`, {
      guard,
      headers: { Authorization: 'JWT x' },
    })
    expect(answer).toMatchObject({ status: 200, body: 'fine', url: `${base}/ok` })
    expect(seen['/ok']).toBe('JWT x')
  })

  it('refuses a redirect to a private address, naming both URLs', async () => {
    const failure = guardedGet(`${base}/to-private`, { guard })
    await expect(failure).rejects.toThrow(FetchError)
    await expect(failure).rejects.toThrow(
      `GET http://10.1.2.3/secret (redirected from ${base}/to-private): 10.1.2.3 is a private, loopback or link-local address, which is refused`,
    )
  })

  it('refuses a redirect to a name that resolves to a loopback address, at the connection', async () => {
    await expect(guardedGet(`${base}/to-loopback-name`, { guard })).rejects.toThrow(
      /localhost:\d+ is a private, loopback or link-local address, which is refused/,
    )
    expect(seen['/ok']).toBe('JWT x')
  })

  it('says a refusal by its type, with the setting that lifts it, at the literal and at the connection', async () => {
    for (const path of ['/to-private', '/to-loopback-name']) {
      const failure = guardedGet(`${base}${path}`, { guard, notes: { refused: 'set SWITCH=true' } })
      await expect(failure).rejects.toThrow(AddressRefused)
      await expect(failure).rejects.toThrow(/which is refused \(set SWITCH=true\)$/)
    }
  })

  it('gives binary answers as they came', async () => {
    const answer = await guardedGetBytes(`${base}/ok`, { guard })
    expect(answer.data.equals(Buffer.from('fine'))).toBe(true)
  })

  it('stops redirect loops', async () => {
    await expect(guardedGet(`${base}/loop`, { guard, maxRedirects: 3 })).rejects.toThrow(
      'more than 3 redirects',
    )
  })

  it('drops the credentials when a redirect leaves the origin', async () => {
    const open = addressGuard(() => true)
    delete seen['/ok']
    await guardedGet(`${base}/to-loopback-name`, {
      guard: open,
      headers: { Authorization: 'JWT x' },
    })
    expect('/ok' in seen).toBe(true)
    expect(seen['/ok']).toBeUndefined()
  })
})
