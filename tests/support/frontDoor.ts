/**
 * The front door (src/server/frontDoor.ts) in a real HTTP server, with the namespace's side played by
 * the facts it publishes: each answer shared at the revision `revision.now` names in its ETag, and
 * `answer` making what the front door does not serve.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'
import { FrontDoor } from '../../src/server/frontDoor'
import { NAMESPACE_FACTS, type NamespaceFacts } from '../../src/server/namespaceFacts'

const globals = globalThis as { [NAMESPACE_FACTS]?: NamespaceFacts }
const servers: http.Server[] = []

afterEach(() => {
  delete globals[NAMESPACE_FACTS]
  for (const server of servers.splice(0)) server.close()
})

/** The ETag of an answer the namespace shares at `revision`. */
export const sharedTag = (revision: string) => `"${revision}"`

export async function frontDoorServer(
  answer: (response: http.ServerResponse, revision: string) => Promise<void> | void,
): Promise<{ url: string; revision: { now: string } }> {
  const revision = { now: '1' }
  globals[NAMESPACE_FACTS] = {
    revision: () => revision.now,
    sharedAt: (tag) => (tag === sharedTag(revision.now) ? { revision: revision.now } : undefined),
    admitRead: async () => ({}),
    answer: () => undefined,
    countsQueries: false,
    signedIn: () => false,
    corsHeaders: () => ({}),
    adminRoute: '/admin',
    databaseAnswers: async () => true,
  }
  const front = new FrontDoor(1024 * 1024)
  const server = http.createServer((request, response) => {
    void front.serve(request, response).then((served) => served || answer(response, revision.now))
  })
  servers.push(server)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/api/cal/events/v1/events?search=front`, revision }
}
