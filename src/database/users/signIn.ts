import { randomUUID } from 'node:crypto'
import { sql } from '@payloadcms/db-postgres'
import { getTableColumns, type Column, type Table } from '@payloadcms/db-postgres/drizzle'
import type {
  AuthStrategy,
  FlattenedField,
  Payload,
  SanitizedCollectionConfig,
  TypedUser,
} from 'payload'
import { boundedCache } from '../../calendar/caches'
import { isConnectionLoss } from '../connectionErrors'
import { primaryStatement, statement, type SQL, type Statement } from '../rawQuery'
import { requestClaims } from './signInToken'

/** The collection of the users, whose table the statement reads. */
const USERS = 'users'

type Session = { id: string; createdAt: string | null; expiresAt: string }

/** A user as the statement reads it: the fields Payload's `findByID` hands on, and their sessions. */
type UserRow = Record<string, unknown> & { sessions?: Session[] }

/**
 * Payload's JWT strategy (`payload/dist/auth/strategies/jwt.js`) with its two costs taken out: the
 * token's signature is verified once per process (`calendar/signInToken.ts`), and the user and their
 * sessions are read by one prepared statement instead of `findByID`, whose relational query drizzle
 * builds afresh each time. The user is read on every request, on the primary, so that a logout, an
 * ended session or a deleted user anywhere ends access here at once; nothing of the user is kept.
 *
 * It runs before Payload's own strategies and signs in only a caller Payload's would sign in, as the
 * same user. Whatever it does not decide for certain (no token, an API key, a token it refuses, a
 * collection other than its own, `verify`, no local strategy, a user whose fields it cannot read as
 * Payload does) it leaves to the strategies after it, Payload's API-key and JWT strategies, so that a
 * refusal and auto-login stay exactly Payload's: a refused token costs both strategies' work, a
 * signed-in one only this one's.
 */
export const signedTokenStrategy: AuthStrategy = {
  name: `${USERS}-signed-token`,
  authenticate: async ({ headers, payload }) => {
    const began = Date.now()
    try {
      return { user: await signedInUser(headers, payload) }
    } catch (error) {
      // Once more, on another connection: one that died in the pool is no lost database, and fails
      // at once. A database that took its time to fail (it did not answer, the pool had no
      // connection for it) would only make the caller wait as long again.
      if (!isConnectionLoss(error) || Date.now() - began > RETRY_WITHIN_MS) throw error
      return { user: await signedInUser(headers, payload) }
    }
  },
}

/** How soon a failed sign-in must fail for a second try on another connection. */
const RETRY_WITHIN_MS = 1000

/**
 * A header the guard of Payload's REST and GraphQL puts on each request, naming it to its sign-in:
 * Payload's strategy runner logs a strategy's failure and goes on without a user, so its doors
 * answered a signed-in caller whose sign-in lost the database as anonymous (`/api/users/me` 200 with
 * no user, 403 on administrators' routes), and a client took itself for signed out. The guard answers
 * such a request 503 instead, as everything else that loses the database (docs/api.md §11). A mark
 * in the headers, not the headers object, names the request: a read sent as a POST (Payload's
 * method override) is signed in on a copy of them. Only a mark the guard issued counts, and only
 * until the guard has read it (`signInLostDatabase`), so a client's own marks hold nothing.
 */
export const SIGN_IN_MARK = 'X-Calendar-Sign-In'

/** The marks issued to requests under way, each with whether their sign-in lost the database, and whom to tell. */
const marks = new Map<string, { lost: boolean; tell: () => void }>()

/** Puts a fresh mark on `headers` (`SIGN_IN_MARK`); settles as soon as that request's sign-in loses the database. */
export function markSignIn(headers: Headers): Promise<void> {
  const mark = randomUUID()
  headers.set(SIGN_IN_MARK, mark)
  return new Promise((tell) => marks.set(mark, { lost: false, tell }))
}

/**
 * `payload` as a sign-in sees it, with its `find` and `findByID` watched: Payload's API-key and JWT
 * strategies take a failed user lookup for "no such user" and swallow its error, so the loss of the
 * database the lookup used (the primary, or a read replica) is kept for the caller (`lost`). Made
 * per call, so nothing shared changes under other requests.
 */
export function watchingLookups(payload: Payload): { payload: Payload; lost: () => unknown } {
  let failure: unknown
  const watch = (method: 'find' | 'findByID') => ({
    value: (args: never) =>
      (payload[method] as (args: never) => Promise<unknown>)(args).catch((error: unknown) => {
        if (isConnectionLoss(error)) failure ??= error
        throw error
      }),
  })
  return {
    payload: Object.create(payload, { find: watch('find'), findByID: watch('findByID') }),
    lost: () => failure,
  }
}

/**
 * Every strategy of `payload` (ours, Payload's API key and tokens, an app's own) marks the request
 * whose sign-in it could not finish for a lost database, whether it threw or swallowed the lookup's
 * failure: a lost database is told from a wrong key or token without another statement.
 */
export function markLostSignIns(payload: Payload): void {
  payload.authStrategies = payload.authStrategies.map((strategy) => ({
    ...strategy,
    authenticate: async (args) => {
      // Once one strategy has lost the database, the next ones would each wait for it again (a
      // frozen database: a deadline each, three or six in all before the caller's 503).
      // (Answered as no user, not thrown: Payload's runner would log each strategy's throw again.)
      if (lostSignIns.has(args.headers)) return { user: null }
      const watched = watchingLookups(args.payload)
      try {
        const result = await strategy.authenticate({ ...args, payload: watched.payload })
        if (!result.user && watched.lost()) throw watched.lost()
        return result
      } catch (error) {
        if (isConnectionLoss(error)) {
          lostSignIns.set(args.headers, error)
          const marked = marks.get(args.headers.get(SIGN_IN_MARK) ?? '')
          if (marked) {
            marked.lost = true
            marked.tell()
          }
        }
        throw error
      }
    },
  }))
}

/** The headers of sign-ins under way whose lookup lost the database, with its failure. */
const lostSignIns = new WeakMap<Headers, unknown>()

/** The failure with which the sign-in of the request with these headers lost the database, if it did. */
export function lostSignIn(headers: Headers): unknown {
  return lostSignIns.get(headers)
}

/** An `Authorization` header that carries an API key, as Payload reads one (`<collection> API-Key <key>`). */
const API_KEY = /^\S+ API-Key /

/** Whether the sign-in of the request with this mark lost the database; the mark is forgotten as it is read. */
export function signInLostDatabase(headers: Headers): boolean {
  const mark = headers.get(SIGN_IN_MARK)
  if (mark === null) return false
  const lost = marks.get(mark)?.lost === true
  marks.delete(mark)
  return lost
}

async function signedInUser(headers: Headers, payload: Payload): Promise<TypedUser | null> {
  const { config } = payload.collections[USERS]!
  const { auth } = config
  // Payload tries an API key before any token: a request that carries one is left to it.
  if (API_KEY.test(headers.get('Authorization') ?? '')) return null
  // Payload's JWT strategy refuses these collections' tokens, or asks what this one does not read.
  if (auth.disableLocalStrategy || auth.verify) return null
  const claims = requestClaims((name) => headers.get(name), payload)
  if (!claims || claims.collection !== USERS || !Number.isSafeInteger(claims.id)) return null
  const read = userRead(payload, config)
  if (!read) return null
  const [row] = await primaryStatement<{ doc: UserRow }>(payload, read.statement, {
    id: claims.id,
  })
  const user = row?.doc
  if (!user) return null
  if (auth.useSessions && !(claims.sid && user.sessions?.some(({ id }) => id === claims.sid)))
    return null
  for (const key of read.dates) if (typeof user[key] === 'string') user[key] = isoDate(user[key])
  if (user.sessions)
    user.sessions = user.sessions.map((session) => ({
      id: session.id,
      createdAt: session.createdAt && isoDate(session.createdAt),
      expiresAt: isoDate(session.expiresAt),
    }))
  return {
    ...user,
    collection: USERS,
    // The strategy this one stands in for: Payload's `me` and `refresh` report it.
    _strategy: 'local-jwt',
    ...(auth.useSessions ? { _sid: claims.sid } : {}),
  } as unknown as TypedUser
}

/** Timestamps as Payload's adapter gives them: ISO 8601 in UTC with milliseconds. */
const isoDate = (value: string) => new Date(value).toISOString()

/** The user's statement, and which of its keys are dates; null when the strategy leaves the users to Payload's. */
type UserRead = { statement: Statement; dates: string[] } | null

const reads = boundedCache<SanitizedCollectionConfig, UserRead>('userStatements')

function userRead(payload: Payload, config: SanitizedCollectionConfig): UserRead {
  let read = reads.get(config)
  if (read === undefined) reads.set(config, (read = derivedRead(payload, config)))
  return read
}

/** Field types stored as one column of the users' row and handed on as the column holds them. */
const PLAIN = new Set([
  'checkbox',
  'code',
  'date',
  'email',
  'json',
  'number',
  'radio',
  'select',
  'text',
  'textarea',
])

/**
 * The statement that reads a user as Payload's `findByID` hands them to its JWT strategy, derived
 * from the collection's fields, so that a field the app or a developer adds is read with the rest:
 * what Payload hides or its own hooks take out (the password's hash, the API key) is left out, and
 * the API key's `hasAPIKey` is made as its hook makes it. Null when a field or a hook would make
 * Payload's answer other than the row as stored (a relationship populated, an array, a localized or
 * virtual field, a read hook): the strategy then leaves the users to Payload's.
 */
function derivedRead(payload: Payload, config: SanitizedCollectionConfig): UserRead {
  const { auth, hooks } = config
  // The API key's hook (`omitAPIKey`), which Payload puts first, is the one read hook handled here.
  if (hooks.afterRead.length || hooks.beforeRead.length > (auth.useAPIKey ? 1 : 0)) return null
  const table = (payload.db as unknown as { tables: Record<string, Table | undefined> }).tables[
    USERS
  ]
  if (!table) return null
  const columns = getTableColumns(table)
  const pairs: SQL[] = [sql`'id', ${columns.id}`]
  const dates: string[] = []
  for (const field of config.flattenedFields) {
    const value = fieldValue(field, columns, auth)
    if (value === null) return null
    if (value === undefined) continue
    pairs.push(sql`${field.name}::text, ${value}`)
    if (field.type === 'date') dates.push(field.name)
  }
  // Payload's `findByID` does not find a user in the trash, so their tokens sign no one in.
  if (config.trash && !columns.deletedAt) return null
  const live = config.trash ? sql` and ${columns.deletedAt} is null` : sql``
  return {
    statement: statement(
      payload,
      sql`select json_build_object(${sql.join(pairs, sql`, `)}) as doc
        from ${table} where ${columns.id} = ${sql.placeholder('id')}${live}`,
    ),
    dates,
  }
}

/** A field's value in SQL; undefined for a field Payload does not hand on, null for one this statement cannot read as Payload does. */
function fieldValue(
  field: FlattenedField,
  columns: Record<string, Column | undefined>,
  auth: SanitizedCollectionConfig['auth'],
): SQL | null | undefined {
  if (field.name === 'id') return undefined
  if (field.hidden) return undefined
  if (auth.useAPIKey && (field.name === 'apiKey' || field.name === 'apiKeyIndex')) return undefined
  if (auth.useAPIKey && field.name === 'hasAPIKey')
    return sql`coalesce(${columns.apiKeyIndex}, '') <> ''`
  if (auth.useSessions && field.name === 'sessions') return SESSIONS
  const column = columns[field.name]
  const plain =
    PLAIN.has(field.type) &&
    !('hasMany' in field && field.hasMany) &&
    !field.localized &&
    !('virtual' in field && field.virtual) &&
    !('hooks' in field && field.hooks?.afterRead?.length)
  return plain && column ? sql`${column}` : null
}

/** The user's sessions, in their order. */
const SESSIONS = sql`coalesce((select json_agg(json_build_object(
    'id', s.id, 'createdAt', s.created_at, 'expiresAt', s.expires_at) order by s._order)
  from users_sessions s where s._parent_id = users.id), '[]')`
