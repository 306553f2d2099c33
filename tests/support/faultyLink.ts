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
   * reset that connection instead: a backend dying mid-query.
   */
  resetNextSend: (matching?: RegExp) => void
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
    client.on('data', (chunk) => {
      if (holdWhen?.test(chunk.toString('latin1'))) {
        holdWhen = undefined
        // What this connection sends after it waits behind it, in order.
        client.pause()
        return void held.push(() => {
          upstream.write(chunk)
          if (!frozen) client.resume()
        })
      }
      if (!resetWhen?.test(chunk.toString('latin1'))) return void upstream.write(chunk)
      resetWhen = undefined
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

/**
 * What the app sends each time it runs a named prepared statement (`rawQuery.ts`, `Statement`,
 * names `calendar_…`): a Bind message (B, its length, no portal, the statement's name). Its text goes
 * only once per connection.
 */
export const PREPARED_BIND = /B[^]{4}\0calendar_/
