import { executeAuthStrategies, type PayloadRequest } from 'payload'
import qs from 'qs'
import type { z } from 'zod'
import type { Actor } from '../calendar/access/roles'
import { answerCache, type Answer } from './answerCache'
import { answerTag, bodyTag, ifNoneMatch, visibilityOf } from './answerTag'
import { answerShared } from './sharedAnswers'
import { nextMidnight } from '../calendar/dates/zone'
import { isConnectionLoss, isWriteConflict } from '../database/connectionErrors'
import { countQueries, queryCountEnabled } from '../database/queryCount'
import { isLanguageCode } from '../i18n/languages'
import { apiRootOf, createContext, type RestContext } from './context'
import { lostSignIn, watchingLookups } from '../database/users/signIn'
import { readBody } from './http/body'
import { jsonOf, JsonText } from './http/jsonText'
import { errorSent, RestError } from '../server/errors'
import { ownedBytes, type Sent } from '../server/sent'
import { Refusal } from '../operations/refusal'
import { QUERY_PARSE_OPTIONS } from './http/query'
import { limitRate, returnRate } from './rateLimit'
import { fingerprintOf, IDEMPOTENCY_HEADER, idempotently, REPLAYED_HEADER } from './idempotency'
import { REQUEST_ID_HEADER } from '../server/requestId'
import { inWriteTurn, refuseForeseenWrite } from '../server/writeLane'
import { maxBodyBytes } from '../server/requestBody'
import { numberSetting } from '../calendar/settings'
import type { AnyRoute, HttpMethod, RestResult } from './route'
import { REST_ROOT, ROUTES } from './routes'

/** A route with its path as a pattern and the parameters it cannot do without (those whose schema refuses `undefined`). */
type CompiledRoute = { route: AnyRoute; pattern: RegExp; required: string[] }

/** Path parameters and what they may contain: ids are digits, slugs anything but a slash (docs/api.md §1). */
const PATH_PARAMETER: Record<string, string> = { id: '(?<id>\\d+)', slug: '(?<slug>[^/]+)' }

/** A route's path as a pattern: its parameters' patterns, and its text literally (the dot of `/events.ics`). */
function compile(route: AnyRoute): CompiledRoute {
  const source = route.path
    .split(/(\{\w+\})/)
    .map((piece) => {
      const name = /^\{(\w+)\}$/.exec(piece)?.[1]
      if (name === undefined) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const pattern = PATH_PARAMETER[name]
      if (!pattern) throw new Error(`route ${route.path}: unknown path parameter {${name}}`)
      return pattern
    })
    .join('')
  const required = Object.entries(route.params.shape)
    .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
    .map(([name]) => name)
  return { route, pattern: new RegExp(`^${source}/?$`), required }
}

/** A table of routes, compiled once at start-up in its order, and the absolute URL of a path in it, for its ETags. */
type Table = { compiled: CompiledRoute[]; urlOf: (ctx: RestContext, path: string) => string }

const NAMESPACE: Table = {
  compiled: ROUTES.map(compile),
  urlOf: (ctx, path) => `${ctx.root}${path}`,
}
const ROOT: Table = { compiled: [compile(REST_ROOT)], urlOf: (ctx) => apiRootOf(ctx) }

const EXPOSED_HEADERS = `X-Total, X-Total-Pages, Link, ETag, Content-Disposition, ${REPLAYED_HEADER}, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ${REQUEST_ID_HEADER}`
const anonymousMaxAge = numberSetting('CACHE_MAX_AGE')

function match(
  table: Table,
  method: string,
  path: string,
): { compiled: CompiledRoute; pathParams: Record<string, string> } {
  for (const compiled of table.compiled) {
    const found = compiled.pattern.exec(path)
    if (found && compiled.route.methods.includes(method as HttpMethod))
      return { compiled, pathParams: decodeAll(found.groups ?? {}) }
  }
  throw RestError.noRoute()
}

/** A request's route pattern (`/events/{id}`), for labels that must stay few (server/metrics.ts); undefined when no route has it. */
export function routePattern(method: string, namespacePath: string): string | undefined {
  const found = NAMESPACE.compiled.find(
    ({ route, pattern }) =>
      route.methods.includes(method as HttpMethod) && pattern.test(namespacePath),
  )
  return found && (found.route.path || '/')
}

/** The languages of the site: a plugin option may offer fewer than the namespace knows. */
function offered(req: PayloadRequest, language: string): boolean {
  const { localization } = req.payload.config
  return !localization || localization.localeCodes.includes(language)
}

function decodeAll(groups: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const [name, value] of Object.entries(groups)) {
    try {
      decoded[name] = decodeURIComponent(value)
    } catch {
      throw RestError.invalidParams({ [name]: 'Malformed percent-encoding.' })
    }
  }
  return decoded
}

/**
 * Runs one namespace request: match, parse, validate, authorize, handle, render (docs/architecture.md);
 * its answer as sent (`server/sent.ts`), which the server in front of Next writes as it is.
 */
export function namespaceAnswer(req: PayloadRequest, namespacePath: string): Promise<Sent> {
  return answerOf(NAMESPACE, req, namespacePath)
}

/** `GET /api/`, the REST root index (docs/api.md §13), served as the namespace's routes are. */
export function restRootAnswer(req: PayloadRequest): Promise<Sent> {
  return answerOf(ROOT, req, '')
}

async function answerOf(table: Table, req: PayloadRequest, path: string): Promise<Sent> {
  const method = methodOf(req)
  if (!queryCountEnabled) return serveRequest(table, req, method, path)
  const { result, queries } = await countQueries(() => serveRequest(table, req, method, path))
  result.headers.set('X-Query-Count', String(queries))
  return result
}

/** The header WordPress reads a POST's method from, when its query has no `_method`. */
export const METHOD_OVERRIDE_HEADER = 'X-HTTP-Method-Override'
/** The methods a POST may stand for: those of clients that cannot send them (docs/api.md §1). */
const OVERRIDABLE = ['PUT', 'PATCH', 'DELETE']

/**
 * The method a request is served as. As WordPress's REST server does, a POST may name another in
 * `?_method=` or `X-HTTP-Method-Override` (`@wordpress/api-fetch` sends every PUT, PATCH and DELETE
 * so by default): served as a POST, its DELETE was an empty update answered 200, nothing trashed.
 * Only a POST's, and only the write methods: a GET that became a DELETE would be a link that deletes,
 * followed with the admin's cookie.
 */
function methodOf(req: PayloadRequest): string {
  const method = (req.method ?? 'GET').toUpperCase()
  if (method !== 'POST') return method
  const named =
    // The last `_method`, as the query's other keys are read (`http/query.ts`).
    new URL(req.url ?? 'http://localhost/').searchParams.getAll('_method').at(-1) ??
    req.headers.get(METHOD_OVERRIDE_HEADER)
  const override = named?.trim().toUpperCase()
  return override && OVERRIDABLE.includes(override) ? override : method
}

async function serveRequest(
  table: Table,
  req: PayloadRequest,
  method: string,
  path: string,
): Promise<Sent> {
  req.context.calendarNamespace = true
  const baseHeaders = { 'Access-Control-Expose-Headers': EXPOSED_HEADERS }
  // An answer that took a token says so, a refusal too (docs/operations.md, "Rate limits").
  let limits: Record<string, string> = {}
  try {
    if (method === 'OPTIONS') return { status: 204, headers: new Headers(baseHeaders), body: null }
    const { compiled, pathParams } = match(table, method, path)
    const route = compiled.route
    const { raw, shadowedByPath, params } = await requestParams(req, method, compiled, pathParams)
    const language = isLanguageCode(raw.i18n_language) ? raw.i18n_language : undefined
    await authenticateAgain(req)
    const kind = method === 'GET' || method === 'HEAD' ? 'read' : 'write'
    // A write the lane would refuse anyway is refused before it takes a token or downloads an image.
    if (kind === 'write') refuseForeseenWrite()
    limits = await limitRate({ req, actor: req.user as Actor }, kind)
    const ctx = await createContext(req, language, shadowedByPath)
    if (!offered(req, ctx.language)) {
      if (language)
        throw RestError.invalidParams({ i18n_language: 'This site does not offer this language.' })
      throw RestError.noRoute()
    }
    // A GET's ETag is known from the revision before anything is looked up: a match costs no page query.
    const visibility = visibilityOf(req, raw)
    const headers = { ...baseHeaders, ...limits, ...cachingHeaders(visibility !== 'anonymous') }
    const clock = method === 'GET' ? route.clock?.(ctx, params) : undefined
    const tag =
      method === 'GET'
        ? answerTag({
            ctx,
            route,
            url: table.urlOf(ctx, path),
            raw,
            shadowedByPath,
            visibility,
            clock,
          })
        : undefined
    if (tag && ifNoneMatch(req.headers.get('If-None-Match'), tag, false))
      return { status: 304, headers: new Headers({ ...headers, ETag: tag }), body: null }
    const answer = async (): Promise<Answer> => {
      // One lookup of the route's item, shared by the permission check, validation and the handler.
      const target = (route.target ? await route.target(ctx, params) : undefined) as never
      // Permission first: checks against stored data (a slug taken, an author that exists) would
      // otherwise tell a caller who may not write what exists.
      if (route.authorize && !(await route.authorize(ctx, params, target)))
        throw RestError.forbidden(ctx.signedIn)
      const invalid = route.validate ? await route.validate(ctx, params, target) : {}
      if (Object.keys(invalid).length) throw RestError.invalidParams(invalid)
      const preparing = Date.now()
      if (route.prepare) await route.prepare(ctx, params)
      const networkMs = Date.now() - preparing
      const handle = () => route.handler(ctx, params, target)
      const key = method === 'GET' ? null : req.headers.get(IDEMPOTENCY_HEADER)
      const run = () =>
        key === null
          ? handle()
          : idempotently(ctx, key, fingerprintOf(method, path, ctx.language, raw), handle)
      // A write takes its turn only now, its body read and its images downloaded: no turn waits on the network.
      return rendered(
        await (method === 'GET'
          ? run()
          : inWriteTurn(run, { networkMs, refused: () => returnRate(ctx, 'write') })),
      )
    }
    // Only anonymous answers are kept: nobody else may be served what one user or one password was.
    const shared = tag !== undefined && ctx.revision !== undefined && visibility === 'anonymous'
    if (!shared) return respond(req, method, await answer(), headers, tag)
    const kept = await answerCache(req.payload).get(ctx.revision!, tag, answer)
    answerShared(req.payload, ctx.revision!, tag, () => clockMovesAt(route, ctx, params, clock))
    return respond(req, method, kept, headers, tag)
  } catch (error) {
    return errorSent(fromPayloadError(error, Boolean(req.user)), {
      ...baseHeaders,
      ...limits,
      'Cache-Control': 'no-store',
    })
  }
}

/**
 * Payload's auth strategies take a failed user lookup for "no such user": a signed-in caller whose
 * lookup lost its database connection would be answered 401, told its credentials are bad, even when
 * the next query of the request succeeds on another connection. A caller who sent credentials but came
 * out anonymous is authenticated again, watching the lookups: a database failure is then a 503, and a
 * lookup that works this time signs the caller in as the first should have.
 */
async function authenticateAgain(req: PayloadRequest): Promise<void> {
  if (req.user || !(req.headers.has('Authorization') || req.headers.has('Cookie'))) return
  // The first sign-in already lost the database: a second would wait for it again.
  const lost = lostSignIn(req.headers)
  if (lost) throw lost
  const watched = watchingLookups(req.payload)
  const { user } = await executeAuthStrategies({
    headers: req.headers,
    payload: watched.payload,
    req,
    canSetHeaders: false,
  })
  if (watched.lost()) throw watched.lost()
  if (user) req.user = user as PayloadRequest['user']
}

/** PostgreSQL text cannot hold NUL: a parameter carrying one is refused by name, not left to fail as a 500. */
function refuseNulBytes(raw: Record<string, unknown>): void {
  const invalid: Record<string, string> = {}
  const visit = (name: string, value: unknown, depth: number): void => {
    if (typeof value === 'string' && value.includes('\u0000'))
      invalid[name] = 'Must not contain NUL characters.'
    else if (value && typeof value === 'object' && depth < 8)
      for (const [key, inner] of Object.entries(value))
        visit(name, key.includes('\u0000') ? '\u0000' : inner, depth + 1)
  }
  for (const [name, value] of Object.entries(raw))
    visit(name.includes('\u0000') ? 'body' : name, value, 0)
  if (Object.keys(invalid).length) throw RestError.invalidParams(invalid)
}

/**
 * The route's parameters: the query string and the body read, the path's parameters over them (the
 * path names the item; a value the body gave under the same name is a new value for it, a by-slug
 * update's `slug`, kept apart), then checked by the route's schema: 400 for one missing or invalid.
 */
async function requestParams(
  req: PayloadRequest,
  method: string,
  { route, required }: CompiledRoute,
  pathParams: Record<string, string>,
) {
  const url = new URL(req.url ?? 'http://localhost/')
  const query = qs.parse(url.search, QUERY_PARSE_OPTIONS)
  const body =
    method === 'GET'
      ? {}
      : await readBody(req as unknown as Request, maxBodyBytes(), req.payload.logger)
  const given: Record<string, unknown> = { ...query, ...body }
  const shadowedByPath = Object.fromEntries(
    Object.keys(pathParams)
      .filter((name) => given[name] !== undefined)
      .map((name) => [name, given[name]]),
  )
  const raw = { ...given, ...pathParams }
  refuseNulBytes(shadowedByPath)
  refuseNulBytes(raw)
  const missing = required.filter((name) => raw[name] === undefined)
  if (missing.length) throw RestError.missingParams(missing)
  const parsed = route.params.safeParse(raw)
  if (!parsed.success) {
    const invalid: Record<string, string> = {}
    for (const issue of parsed.error.issues)
      invalid[String(issue.path[0] ?? 'body')] ??= issue.message
    throw RestError.invalidParams(invalid)
  }
  return { raw, shadowedByPath, params: parsed.data as z.output<AnyRoute['params']> }
}

/**
 * The body as its UTF-8 bytes, in memory of their own: JSON (as the serializers wrote it, or
 * stringified), or the text of the handler's own content type. Bytes, so that an answer both caches
 * keep is one copy, sent as it is (`Answer`).
 */
function rendered(result: RestResult): Answer {
  return {
    status: result.status ?? 200,
    headers: {
      ...result.headers,
      'Content-Type': result.contentType ?? 'application/json; charset=UTF-8',
    },
    body: bodyBytes(result),
  }
}

/** JSON the serializers wrote is sent as its bytes (`ownedBytes` copies them only from a shared pool). */
function bodyBytes(result: RestResult): Buffer {
  if (result.contentType) return ownedBytes([String(result.body)])
  return ownedBytes([
    result.body instanceof JsonText ? result.body.bytes : (jsonOf(result.body) ?? ''),
  ])
}

/**
 * Public revalidation for anonymous readers, no caching of anything a signed-in user sees or a
 * `password` may have unlocked (the password is in the URL, so a shared cache would serve the
 * content to anyone with the URL); answers differ by credentials and, with an origin allow-list, by
 * origin: shared caches must key on them (docs/api.md §14).
 */
function cachingHeaders(personal: boolean): Record<string, string> {
  return {
    'Cache-Control': personal
      ? 'private, no-store'
      : `public, max-age=${anonymousMaxAge}, must-revalidate`,
    Vary: 'Origin, Authorization, Cookie',
  }
}

/**
 * When an answer that reads the clock stops being the one its URL gives (ms): at the next second for
 * a bound that keeps its time, else at the site's next midnight, since every other bound snaps to a day
 * (docs/api.md §4.2). Undefined for an answer that reads no clock.
 */
function clockMovesAt(
  route: AnyRoute,
  ctx: RestContext,
  params: Record<string, unknown>,
  current: string | undefined,
): number | undefined {
  if (!route.clock || !current) return undefined
  const nextSecond = new Date(Math.floor(ctx.now.getTime() / 1000) * 1000 + 1000)
  if (route.clock({ ...ctx, now: nextSecond }, params as never) !== current)
    return nextSecond.getTime()
  return nextMidnight(ctx.now, ctx.settings.timezone)
}

/** The answer with the namespace's headers and, on a GET, its strong ETag: the revision's, else the body's (304 when it matches). */
function respond(
  req: PayloadRequest,
  method: string,
  answer: Answer,
  headers: Record<string, string>,
  revisionTag: string | undefined,
): Sent {
  const all = new Headers({ ...headers, ...answer.headers })
  if (method === 'GET') {
    const etag = revisionTag ?? bodyTag(answer.body)
    all.set('ETag', etag)
    if (ifNoneMatch(req.headers.get('If-None-Match'), etag, answer.status < 300))
      return { status: 304, headers: all, body: null }
  }
  return { status: answer.status, headers: all, body: answer.body }
}

/** Payload field names that the namespace calls otherwise. */
const PARAM_OF_FIELD: Record<string, string> = {
  start: 'start_date',
  end: 'end_date',
  allDay: 'all_day',
  publishedAt: 'date',
  timezone: 'timezone',
  geoLat: 'geo_lat',
  geoLng: 'geo_lng',
  organizers: 'organizer',
}

/**
 * Errors that Payload raises for a write it refuses (field validation, access) are the client's
 * doing: they become the namespace's 4xx, never a 500.
 */
function fromPayloadError(error: unknown, signedIn: boolean): unknown {
  if (error instanceof Refusal || !(error instanceof Error)) return error
  if (isConnectionLoss(error)) return RestError.databaseUnavailable()
  if (isWriteConflict(error)) return RestError.writeConflict()
  const status = (error as { status?: number }).status
  if (error.name === 'ValidationError') {
    const fields =
      (error as { data?: { errors?: { path?: string; message?: string }[] } }).data?.errors ?? []
    const params: Record<string, string> = {}
    for (const field of fields)
      params[PARAM_OF_FIELD[field.path ?? ''] ?? field.path ?? 'body'] =
        field.message ?? 'Invalid value.'
    return RestError.invalidParams(Object.keys(params).length ? params : { body: error.message })
  }
  if (status === 401 || status === 403) return RestError.forbidden(signedIn)
  if (status && status >= 400 && status < 500)
    return new RestError('rest_invalid_request', error.message, status)
  return error
}
