/**
 * The floor of (i), the signed-in editor's list (bench/rawFloor.ts): the same events and total as
 * the namespace gives the bench's editor, made as a careful raw server would make them. It verifies
 * the token as Payload signs it (HS256 with Payload's secret, kept once verified, as the namespace
 * keeps it, its expiry checked on every use) and reads the user's role and that the token's session
 * is still theirs on every request (a logout or a demotion holds from the next one), as the namespace
 * does (src/database/users/signIn.ts); an editor sees every status but trash. No other check: the cost of the data and the sign-in alone.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { BoundedMap } from '../src/calendar/boundedMap'
import { LISTED, listPool, pageJson, PER_PAGE, totalOf } from './floorParts'
import { inWindow, windowOf, zone } from './floorWindow'

/** Payload's secret, as Payload derives it from `PAYLOAD_SECRET` (`payload/dist/index.js`). */
const secret = createHash('sha256')
  .update(process.env.PAYLOAD_SECRET ?? '')
  .digest('hex')
  .slice(0, 32)

type Claims = { id: number; sid?: string; exp?: number }
/** Tokens verified, the 2,000 used last (the namespace keeps as many). */
const verified = new BoundedMap<string, Claims>(2000)

/** The token's claims when Payload's secret signed it, undefined otherwise. */
function claimsOf(token: string): Claims | undefined {
  let claims = verified.get(token)
  if (!claims) {
    const [header = '', body = '', signature = ''] = token.split('.')
    const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest()
    const given = Buffer.from(signature, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
    // Signed by this secret, so Payload's: its claims are JSON.
    claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Claims
    verified.set(token, claims)
  }
  return claims.exp === undefined || claims.exp > Date.now() / 1000 ? claims : undefined
}

const ROLE = {
  name: 'floor-role',
  text: `select u.role from users u where u.id = $1
    and exists (select from users_sessions s where s._parent_id = u.id and s.id = $2)`,
}
const EDITORS_LIST = `e.status <> 'trash' and ${LISTED} and ${inWindow()}`
const PAGE = {
  name: 'floor-editor-page',
  text: `with page as (select e.* from events e where ${EDITORS_LIST} order by e.start_local, e.id limit ${PER_PAGE})
${pageJson()}`,
}
const TOTAL = `select count(*)::int as total from events e where ${EDITORS_LIST}`

/** The default list of the editor the request's token names, or a 401 for any other request. */
export async function editorsList(authorization: string): Promise<[number, unknown]> {
  const claims = claimsOf(authorization.replace(/^JWT /, ''))
  const { rows: users } = claims
    ? await listPool.query({ ...ROLE, values: [claims.id, claims.sid] })
    : { rows: [] }
  if (!['editor', 'administrator'].includes(users[0]?.role))
    return [401, { code: 'rest_forbidden', data: { status: 401 } }]
  const window = windowOf(await zone, null, null).values
  const { rows } = await listPool.query({ ...PAGE, values: window })
  const total = await totalOf(String(rows[0].revision), { text: TOTAL, values: window }, listPool)
  return [200, { ...rows[0].body, total, total_pages: Math.ceil(total / PER_PAGE) }]
}
