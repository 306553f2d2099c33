import { sql } from '@payloadcms/db-postgres'
import type { AuthStrategy, Payload, TypedUser } from 'payload'
import { primaryStatement, statement, type Statement } from '../rawQuery'
import { tokenOf, verifiedClaims } from './signInToken'

/** The collection of the users, whose table the statement reads. */
const USERS = 'users'

type Session = { id: string; createdAt: string | null; expiresAt: string }

/** A user as Payload's `findByID` hands it to its JWT strategy: the fields it does not hide. */
type UserRow = {
  id: number
  name: string | null
  role: string
  updatedAt: string
  createdAt: string
  enableAPIKey: boolean | null
  email: string
  sessions: Session[]
}

/**
 * Payload's JWT strategy (`payload/dist/auth/strategies/jwt.js`) with its two costs taken out: the
 * token's signature is verified once per process (`signInToken.ts`), and the user and their sessions
 * are read by one prepared statement instead of `findByID`, whose relational query drizzle builds
 * afresh each time. The user is read on every request, on the primary, so that a logout, an ended
 * session or a deleted user anywhere ends access here at once; nothing of the user is kept.
 *
 * It runs before Payload's own strategies and signs in only a caller Payload's would sign in, as the
 * same user. Whatever it does not decide for certain (no token, an API key, a token it refuses, a
 * collection other than its own, `verify`, no local strategy) it leaves to the strategies after it, Payload's API-key
 * and JWT strategies, so that a refusal and auto-login stay exactly Payload's: a refused token costs
 * both strategies' work, a signed-in one only this one's.
 */
export const signedTokenStrategy: AuthStrategy = {
  name: `${USERS}-signed-token`,
  authenticate: async ({ headers, payload }) => ({ user: await signedInUser(headers, payload) }),
}

async function signedInUser(headers: Headers, payload: Payload): Promise<TypedUser | null> {
  const { auth } = payload.collections[USERS]!.config
  // Payload tries an API key before any token: a request that carries one is left to it.
  if (/^\S+ API-Key /.test(headers.get('Authorization') ?? '')) return null
  // Payload's JWT strategy refuses these collections' tokens, or asks what this one does not read.
  if (auth.disableLocalStrategy || auth.verify) return null
  const token = tokenOf(headers, payload)
  const claims = token && (await verifiedClaims(token, payload))
  if (!claims || claims.collection !== USERS || !Number.isSafeInteger(claims.id)) return null
  const [row] = await primaryStatement<{ doc: UserRow }>(payload, userStatement(payload), {
    id: claims.id,
  })
  const user = row?.doc
  if (!user) return null
  if (auth.useSessions && !(claims.sid && user.sessions.some(({ id }) => id === claims.sid)))
    return null
  return {
    ...user,
    updatedAt: isoDate(user.updatedAt),
    createdAt: isoDate(user.createdAt),
    sessions: user.sessions.map((session) => ({
      id: session.id,
      createdAt: session.createdAt && isoDate(session.createdAt),
      expiresAt: isoDate(session.expiresAt),
    })),
    collection: USERS,
    // The strategy this one stands in for: Payload's `me` and `refresh` report it.
    _strategy: 'local-jwt',
    ...(auth.useSessions ? { _sid: claims.sid } : {}),
  } as unknown as TypedUser
}

/** Timestamps as Payload's adapter gives them: ISO 8601 in UTC with milliseconds. */
const isoDate = (value: string) => new Date(value).toISOString()

let built: Statement | undefined

/** The user of the placeholder `id` with their sessions, as one JSON object; no row for no user. */
function userStatement(payload: Payload): Statement {
  built ??= statement(
    payload,
    sql`select json_build_object(
      'id', u.id, 'name', u.name, 'role', u.role, 'updatedAt', u.updated_at, 'createdAt', u.created_at,
      'enableAPIKey', u.enable_a_p_i_key, 'email', u.email,
      'sessions', coalesce((select json_agg(json_build_object(
          'id', s.id, 'createdAt', s.created_at, 'expiresAt', s.expires_at) order by s._order)
        from users_sessions s where s._parent_id = u.id), '[]')) as doc
    from users u where u.id = ${sql.placeholder('id')}`,
  )
  return built
}
