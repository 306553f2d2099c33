/**
 * A request whose handler rejects in the production server (scripts/server.ts: Next's `handle()`),
 * served by a real node http server as the production server serves it: answered as the contract
 * answers a fault (docs/api.md §11), logged with its request id, and the server goes on serving.
 * No real request was found that makes Next's handler reject (it answers its own failures), hence
 * this test of the answer alone.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { answerFailure } from '../../src/server/handlerFailure'
import { NAMESPACE_FACTS, type NamespaceFacts } from '../../src/server/namespaceFacts'
import { observed } from '../../src/server/observed'

/** What the handler does before it fails, by the request's path. */
const FAILURES: Record<string, (response: http.ServerResponse) => Error> = {
  '/bug': (response) => {
    response.setHeader('X-Half-Made', 'yes')
    response.setHeader('Access-Control-Allow-Origin', 'https://half-made.example')
    response.setHeader('Content-Type', 'text/html')
    return new Error('a bug in the handler')
  },
  '/database': () =>
    new Error('Failed query: select 1', {
      cause: Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' }),
    }),
  '/begun': (response) => {
    response.writeHead(200, { 'Content-Type': 'text/plain' })
    response.write('the first half')
    return new Error('failed midway')
  },
}

let server: http.Server
let base: string
const logged: unknown[][] = []

const globals = globalThis as { [NAMESPACE_FACTS]?: Partial<NamespaceFacts> }

beforeAll(async () => {
  // The namespace's side: Payload's CORS headers as its `cors` setting gives them, for a site that lets one origin read.
  globals[NAMESPACE_FACTS] = {
    corsHeaders: (origin): Record<string, string> =>
      origin === 'https://broken.example'
        ? { 'Access-Control-Allow-Origin': 'https://broken.example\nX-Injected: yes' }
        : origin === 'https://site.example'
          ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
          : { Vary: 'Origin' },
  }
  vi.spyOn(console, 'error').mockImplementation((...line: unknown[]) => void logged.push(line))
  const failing = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    await new Promise((resolve) => setImmediate(resolve))
    throw FAILURES[request.url ?? '']!(response)
  }
  server = http.createServer(
    observed(
      (request, response) =>
        void failing(request, response).catch((error: unknown) =>
          answerFailure(request, response, error),
        ),
    ),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  delete globals[NAMESPACE_FACTS]
  vi.restoreAllMocks()
  await new Promise((resolve) => server.close(resolve))
})

describe('a request whose handler rejects', () => {
  it('is answered 500 in the error envelope, without what the handler had set, and logged with its id', async () => {
    const response = await fetch(`${base}/bug`, {
      method: 'POST',
      body: 'a body nobody read',
      headers: { 'X-Request-Id': 'failing-1' },
    })
    expect(response.status).toBe(500)
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=UTF-8')
    expect(response.headers.get('X-Half-Made')).toBeNull()
    expect(response.headers.get('X-Request-Id')).toBe('failing-1')
    const body = await response.text()
    expect(response.headers.get('Content-Length')).toBe(String(Buffer.byteLength(body)))
    expect(JSON.parse(body)).toEqual({
      code: 'rest_internal_error',
      message: 'The server could not complete the request.',
      data: { status: 500 },
    })
    expect(body).not.toContain('a bug in the handler')
    const line = logged.find((args) => String(args[0]).includes('failing-1'))
    expect(line?.[1]).toBeInstanceOf(Error)
    expect((line?.[1] as Error).message).toBe('a bug in the handler')
  })

  it("carries the CORS headers the namespace gives the caller's origin, not the handler's", async () => {
    const response = await fetch(`${base}/bug`, { headers: { Origin: 'https://site.example' } })
    expect(response.status).toBe(500)
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('https://site.example')
    expect(response.headers.get('Vary')).toBe('Origin')
    const elsewhere = await fetch(`${base}/database`, {
      headers: { Origin: 'https://other.example' },
    })
    expect(elsewhere.status).toBe(503)
    expect(elsewhere.headers.get('Access-Control-Allow-Origin')).toBeNull()
    // A page that may read the answer may read when to come back.
    const lost = await fetch(`${base}/database`, { headers: { Origin: 'https://site.example' } })
    expect(lost.headers.get('Access-Control-Allow-Origin')).toBe('https://site.example')
    expect(lost.headers.get('Access-Control-Expose-Headers')).toBe('Retry-After, X-Request-Id')
    expect(lost.headers.get('Retry-After')).toBe('5')
  })

  it('closes the connection when its own answer cannot be sent, and the server goes on serving', async () => {
    await expect(
      fetch(`${base}/bug`, { headers: { Origin: 'https://broken.example' } }),
    ).rejects.toThrow()
    expect((await fetch(`${base}/bug`)).status).toBe(500)
  })

  it('is answered 503 rest_database_unavailable with Retry-After when the database was lost', async () => {
    const response = await fetch(`${base}/database`)
    expect(response.status).toBe(503)
    expect(response.headers.get('Retry-After')).toBe('5')
    const body = (await response.json()) as { code: string; data: { status: number } }
    expect(body.code).toBe('rest_database_unavailable')
    expect(body.data.status).toBe(503)
  })

  it('answers a HEAD without a body, with the length of the one a GET gets', async () => {
    const get = await fetch(`${base}/bug`)
    const head = await fetch(`${base}/bug`, { method: 'HEAD' })
    expect(head.status).toBe(500)
    expect(await head.text()).toBe('')
    expect(head.headers.get('Content-Length')).toBe(String(Buffer.byteLength(await get.text())))
  })

  it('cuts off an answer already begun, so that it does not look whole, and the server goes on serving', async () => {
    // Whether the head was flushed before the connection went or not, the answer never completes.
    await expect(fetch(`${base}/begun`).then((response) => response.text())).rejects.toThrow()
    expect((await fetch(`${base}/bug`)).status).toBe(500)
  })
})
