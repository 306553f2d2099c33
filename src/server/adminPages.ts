import type { IncomingMessage, ServerResponse } from 'node:http'
import { DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS } from '../database/connectionErrors'
import { namespaceFacts } from './namespaceFacts'

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unavailable</title></head><body><h1>Unavailable</h1><p>${DATABASE_UNAVAILABLE}</p></body></html>`

/**
 * A signed-in editor's admin page while the database is lost: 503 with `Retry-After`
 * (docs/api.md §11). Payload's admin signs its caller in inside Next's page, where a failed user lookup reads as
 * "no such user", and sent the editor to the sign-in form as if their session had ended. Asked only
 * of GETs of the admin's pages that carry a valid sign-in token: one `select 1` each, within 3 s.
 */
export async function refusedAdminPage(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const facts = namespaceFacts()
  if (!facts || (request.method !== 'GET' && request.method !== 'HEAD')) return false
  const path = (request.url ?? '/').split('?')[0]!
  if (path !== facts.adminRoute && !path.startsWith(`${facts.adminRoute}/`)) return false
  if (!facts.signedIn(request.headers) || (await facts.databaseAnswers())) return false
  request.resume()
  response.writeHead(503, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Retry-After': RETRY_AFTER_SECONDS,
    'Content-Length': Buffer.byteLength(PAGE),
  })
  response.end(request.method === 'HEAD' ? undefined : PAGE)
  return true
}
