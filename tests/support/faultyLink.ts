/**
 * A TCP link between an app and its PostgreSQL that the test can break the way a crash or a network
 * does: the app sees real connection failures (resets, refused connections), not a mock.
 */
import { connect, createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

export type FaultyLink = {
  /** `databaseUrl` with its host and port replaced by the link's. */
  url: (databaseUrl: string) => string
  /**
   * The next bytes a connection sends to the database (that match `matching`, e.g. a statement's text)
   * reset that connection instead: a backend dying mid-query. A run of a statement the connection
   * prepared earlier matches by its text too, which goes only once per connection. `fired` tells
   * whether the reset happened, so that a test whose answer is the same without it sees it taken.
   */
  resetNextSend: (matching?: RegExp) => { fired: () => boolean }
  /**
   * The next bytes a connection sends that match `matching` are held, the database never seeing them,
   * until `release`: a database that stops answering without closing anything (a frozen server, a
   * network that drops packets).
   */
  holdNextSend: (matching: RegExp) => void
  release: () => void
  /**
   * Nothing passes either way, on the connections open now or on new ones (whose TCP handshake still
   * succeeds), until `thaw`: a server that stops answering whole.
   */
  freeze: () => void
  thaw: () => void
  /** Every connection is reset and new ones are refused, as when the server is down... */
  down: () => Promise<void>
  /** ...until it is back on the same address. */
  up: () => Promise<void>
  close: () => Promise<void>
}

export async function startFaultyLink(databaseUrl: string): Promise<FaultyLink> {
  const target = new URL(databaseUrl)
  const sockets = new Set<Socket>()
  let resetWhen: RegExp | undefined
  let resets = 0
  let holdWhen: RegExp | undefined
  let held: (() => void)[] = []
  let frozen = false
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname)
    const drop = () => {
      for (const socket of [client, upstream]) {
        socket.destroy()
        sockets.delete(socket)
      }
    }
    sockets.add(client).add(upstream)
    const read = frontendReader()
    client.on('data', (received: Buffer) => {
      const messages = read(received)
      if (!messages) return
      const { chunk, text } = messages
      if (holdWhen?.test(text)) {
        holdWhen = undefined
        // What this connection sends after it waits behind it, in order.
        client.pause()
        return void held.push(() => {
          upstream.write(chunk)
          if (!frozen) client.resume()
        })
      }
      if (!resetWhen?.test(text)) return void upstream.write(chunk)
      resetWhen = undefined
      resets++
      client.resetAndDestroy()
      drop()
    })
    upstream.on('data', (chunk) => client.write(chunk))
    for (const socket of [client, upstream]) {
      socket.on('close', drop).on('error', drop)
      if (frozen) socket.pause()
    }
  })
  const listen = (port = 0) =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  await listen()
  const { port } = server.address() as AddressInfo
  return {
    url: (url) => {
      const through = new URL(url)
      through.hostname = '127.0.0.1'
      through.port = String(port)
      return through.toString()
    },
    resetNextSend: (matching = /[^]/) => {
      resetWhen = matching
      const armedAt = resets
      return { fired: () => resets > armedAt }
    },
    holdNextSend: (matching) => {
      holdWhen = matching
    },
    release: () => {
      for (const send of held) send()
      held = []
    },
    freeze: () => {
      frozen = true
      for (const socket of sockets) socket.pause()
    },
    thaw: () => {
      frozen = false
      for (const socket of sockets) socket.resume()
    },
    down: async () => {
      const closed = new Promise((resolve) => server.close(resolve))
      for (const socket of sockets) socket.destroy()
      sockets.clear()
      await closed
    },
    up: () => listen(port),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      if (server.listening) await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** The codes of the requests a client may send before its startup message (`SSLRequest`, `GSSENCRequest`). */
const BEFORE_STARTUP = new Set([80877103, 80877104])

/** The first `count` NUL-terminated strings of a message's body. */
function cStrings(body: Buffer, count: number): string[] {
  const strings: string[] = []
  for (let at = 0; strings.length < count;) {
    const end = body.indexOf(0, at)
    strings.push(body.toString('latin1', at, end))
    at = end + 1
  }
  return strings
}

/**
 * Reads what one connection sends as the protocol's messages (in clear: the tests ask for no TLS).
 * Each call gives the whole messages received so far (`chunk`, the rest waits for its end) and the
 * text the faults match: those bytes, after the text of each statement a Bind names that a Parse
 * of this connection prepared, as the two come when the statement is sent with its text.
 */
function frontendReader() {
  let pending = Buffer.alloc(0)
  let started = false
  const prepared = new Map<string, string>()
  return (received: Buffer): { chunk: Buffer; text: string } | undefined => {
    pending = Buffer.concat([pending, received])
    const bound: string[] = []
    let end = 0
    for (;;) {
      // Startup messages have no type byte.
      const tag = started ? 1 : 0
      if (pending.length < end + tag + 4) break
      const length = pending.readInt32BE(end + tag)
      if (pending.length < end + tag + length) break
      const body = pending.subarray(end + tag + 4, end + tag + length)
      const kind = started ? String.fromCharCode(pending[end]!) : undefined
      if (!started) started = !BEFORE_STARTUP.has(body.readInt32BE(0))
      else if (kind === 'P') {
        const [name, text] = cStrings(body, 2) as [string, string]
        if (name) prepared.set(name, text)
      } else if (kind === 'B') {
        const text = prepared.get(cStrings(body, 2)[1]!)
        if (text) bound.push(text)
      }
      end += tag + length
    }
    if (end === 0) return undefined
    const chunk = pending.subarray(0, end)
    pending = pending.subarray(end)
    return { chunk, text: [...bound, chunk.toString('latin1')].join('\0') }
  }
}

/**
 * What the app sends each time it runs a named prepared statement (`rawQuery.ts`, `Statement`,
 * names `calendar_…`): a Bind message (B, its length, no portal, the statement's name). Its text goes
 * only once per connection.
 */
export const PREPARED_BIND = /B[^]{4}\0calendar_/
