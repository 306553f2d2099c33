import { setTimeout } from 'node:timers/promises'
import { headersWithCors, type PayloadRequest, type SanitizedConfig } from 'payload'
import {
  DATABASE_UNAVAILABLE,
  errorChain,
  RETRY_AFTER_SECONDS,
  type AfterErrorHook,
} from '../database/connectionErrors'
import { markSignIn, signInLostDatabase } from '../database/users/signIn'
import { calendarRuntime } from '../options'
import { deeperThan, jsonChildren, MAX_JSON_DEPTH, TOO_DEEP } from '../calendar/depth'
import { refusedQuery as refusedGraphQL } from './graphqlRootFields'
import { inNamespace } from './namespacePath'

/**
 * Requests Payload's own REST fails on with a 500 before any rule of ours runs, answered here with
 * the 4xx they are, in Payload's error shape (docs/api.md §11):
 *
 * - `where` or `data` given to a collection's route as a query parameter of JSON text that is not
 *   JSON (Payload parses it with `JSON.parse` and lets the SyntaxError through), or `where` that is
 *   not an object;
 * - a write's body (a collection's or a global's) that is JSON but not an object (`"text"`, `null`, `[1]`: Payload's field hooks
 *   set properties on it), or of a type Payload does not read (a form, plain text: it writes from
 *   nothing): 400 and 415; a GraphQL request whose body is not JSON (Payload's handler lets the
 *   SyntaxError through): 400; a read sent as a POST (Payload's method override) has its
 *   form body checked as the query it is;
 * - routes a collection or a global does not have: `versions` of one without versions, a version
 *   whose id is no integer (`versions/abc`, which Payload answered 400), `verify` of a
 *   collection without e-mail verification (Payload's handlers assume they have them), and any route
 *   of one without REST endpoints (`payload-migrations`, which Payload answers 501 Not Implemented,
 *   an error of the server to a monitor): 404.
 *
 * The namespace's paths are left alone: it validates its own requests and answers in its envelope.
 */
export function guardPayloadRest<A extends unknown[]>(
  config: Promise<SanitizedConfig>,
  handler: (request: Request, ...rest: A) => Promise<Response>,
) {
  return async (request: Request, ...rest: A): Promise<Response> => {
    const resolved = await config
    const url = new URL(request.url)
    // Only a collection's routes read `where` and `data` (Payload's global and custom endpoints,
    // the namespace among them, read neither).
    const refusal =
      (collectionPath(resolved, url) ? refusedQuery(url.searchParams) : undefined) ??
      refusedRoute(resolved, url) ??
      (await checkedBody(resolved, url, request))
    if (refusal instanceof Refusal) return payloadError(resolved, request, refusal)
    const given = refusal ?? request
    const evenedUntil = (await asksForPasswordReset(resolved, url, given))
      ? Date.now() + PASSWORD_RESET_MS
      : undefined
    const signInLost = markSignIn(given.headers)
    // The namespace answers its own, in its envelope (`authenticateAgain`).
    const namespace = inNamespace(
      url.pathname,
      `${resolved.routes.api}/${calendarRuntime(resolved).namespace}`,
    )
    let lost: boolean
    let response: Response | undefined
    try {
      const handled = handler(given, ...rest)
      // A sign-in that lost the database is answered at once: the operation Payload goes on with,
      // for a caller it now takes for anonymous, would wait for the database again.
      response = namespace
        ? await handled
        : await Promise.race([handled, signInLost.then(() => undefined)])
      if (!response) handled.catch(() => undefined)
    } finally {
      lost = signInLostDatabase(given.headers)
      if (evenedUntil) await setTimeout(Math.max(0, evenedUntil - Date.now()))
    }
    return lost && !namespace
      ? payloadError(resolved, given, LOST_DATABASE)
      : keptByNoOne(resolved, url, response!)
  }
}

const PRIVATE = 'private, no-store'

/**
 * The least time a password reset's request is answered in, whether an account has the address or
 * not: for one that has, Payload reserves the request, writes a token and sends the mail (40–200 ms
 * here, an SMTP server's round trips besides), for one that has not it reads one row (10–30 ms), so
 * the time told anyone which addresses have accounts, as sign-ins' did (`evenLoginTime`). Waited
 * once the operation is over, its transaction ended, so that a flood holds no connection.
 */
const PASSWORD_RESET_MS = 1_000

/** Payload's REST `forgot-password` of an auth collection, or a GraphQL document that names its mutation. */
async function asksForPasswordReset(
  config: SanitizedConfig,
  url: URL,
  request: Request,
): Promise<boolean> {
  if (request.method !== 'POST') return false
  if (url.pathname === `${config.routes.api}${config.routes.graphQL}`)
    return /forgotPassword/i.test(await request.clone().text())
  const path = collectionPath(config, url)
  return Boolean(path?.collection.auth) && path!.rest.join('/') === 'forgot-password'
}

/** Payload's 503 for a lost database, as `databaseUnavailableAfterError` answers it. */
const LOST_DATABASE = {
  status: 503,
  message: DATABASE_UNAVAILABLE,
  headers: { 'Retry-After': RETRY_AFTER_SECONDS },
}

/**
 * An error in Payload's shape, with Payload's CORS headers, as its own errors carry them (a page on
 * another origin may read why), kept by no one.
 */
function payloadError(
  config: SanitizedConfig,
  request: Request,
  error: { status: number; message: string; headers?: Record<string, string> },
): Response {
  const req = { payload: { config }, headers: request.headers } as PayloadRequest
  const headers = headersWithCors({ headers: new Headers(error.headers), req })
  headers.set('Cache-Control', PRIVATE)
  return Response.json({ errors: [{ message: error.message }] }, { status: error.status, headers })
}

/**
 * Payload's REST and GraphQL answers say nothing of caching, and answer a signed-in caller's drafts,
 * versions (an event's password among their values) and account at the same URL as an anonymous
 * caller's: a CDN told to keep `/api/*`, or one that keeps what says nothing, would hand them to the
 * next caller. So each is `private, no-store` unless it says otherwise (the namespace's answers do,
 * docs/api.md §14); the media library's files, public (docs/api.md §3.6), are left as Payload sends them.
 */
function keptByNoOne(config: SanitizedConfig, url: URL, response: Response): Response {
  if (response.headers.has('Cache-Control') || collectionPath(config, url)?.rest[0] === 'file')
    return response
  // A copy: a response's headers may be immutable (one passed on from a fetch).
  const kept = new Response(response.body, response)
  kept.headers.set('Cache-Control', PRIVATE)
  return kept
}

/** Why a request is refused, with its status. */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/** The collection a Payload REST path names (`/api/{slug}/…`), with the rest of its segments. */
function collectionPath(config: SanitizedConfig, url: URL) {
  const api = config.routes.api
  if (!url.pathname.startsWith(`${api}/`)) return undefined
  const [slug, ...rest] = url.pathname.slice(api.length + 1).split('/')
  const collection = config.collections.find((each) => each.slug === slug)
  return collection ? { collection, rest } : undefined
}

const JSON_PARAMETERS = ['where', 'data'] as const

/** What keeps JSON text from being the object Payload reads it as, if anything. */
function notAnObject(
  text: string,
): 'is not valid JSON' | 'must be a JSON object' | typeof TOO_DEEP | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'is not valid JSON'
  }
  if (deeperThan(value, jsonChildren, MAX_JSON_DEPTH)) return TOO_DEEP
  return value && typeof value === 'object' && !Array.isArray(value)
    ? undefined
    : 'must be a JSON object'
}

function refusedQuery(query: URLSearchParams): Refusal | undefined {
  for (const name of JSON_PARAMETERS) {
    const text = query.get(name)
    const problem = text ? notAnObject(text) : undefined
    if (problem) return new Refusal(400, `The query parameter "${name}" ${problem}.`)
  }
  return undefined
}

/** A global's path (`/api/globals/{slug}/…`): the global and what follows its slug. */
function globalPath(config: SanitizedConfig, url: URL) {
  const prefix = `${config.routes.api}/globals/`
  if (!url.pathname.startsWith(prefix)) return undefined
  const [slug, ...rest] = url.pathname.slice(prefix.length).split('/')
  const global = config.globals.find((each) => each.slug === slug)
  return global ? { global, rest } : undefined
}

/** A version's id in the path (`versions/{id}`) that names none: versions' ids are PostgreSQL integers. */
const noVersionId = ([first, id]: string[]) =>
  first === 'versions' && id !== undefined && !(/^\d{1,10}$/.test(id) && Number(id) <= 2 ** 31 - 1)

function refusedRoute(config: SanitizedConfig, url: URL): Refusal | undefined {
  const named = collectionPath(config, url)
  const global = globalPath(config, url)
  const missing = named
    ? named.collection.endpoints === false ||
      (named.rest[0] === 'versions' && !named.collection.versions) ||
      noVersionId(named.rest) ||
      (named.rest[0] === 'verify' && !(named.collection.auth && named.collection.auth.verify))
    : global !== undefined &&
      (global.global.endpoints === false ||
        (global.rest[0] === 'versions' && !global.global.versions) ||
        noVersionId(global.rest))
  return missing ? new Refusal(404, 'Not Found') : undefined
}

/** Payload's method override: a POST that Payload serves as the GET it names. */
const readsAsPost = (request: Request) =>
  request.method === 'POST' &&
  (request.headers.get('X-Payload-HTTP-Method-Override') === 'GET' ||
    request.headers.get('X-HTTP-Method-Override') === 'GET')

const FORM = /^application\/x-www-form-urlencoded\b/i

/** Media types Payload reads a write's body in. */
const READ_BODIES = /^(application\/json|multipart\/form-data)\b/i

/**
 * A collection's or global's write's JSON body read once, checked to be an object, and handed on as the same text
 * in a request of its own; undefined when the request goes on as it came.
 */
async function checkedBody(
  config: SanitizedConfig,
  url: URL,
  request: Request,
): Promise<Request | Refusal | undefined> {
  const writes = request.method === 'POST' || request.method === 'PATCH' || request.method === 'PUT'
  const graphql = url.pathname === `${config.routes.api}${config.routes.graphQL}`
  if (
    !writes ||
    !request.body ||
    !(graphql || collectionPath(config, url) || globalPath(config, url))
  )
    return undefined
  const type = request.headers.get('content-type') ?? ''
  // A read sent as a POST (the admin's relationship fields do, for long queries): its query is the
  // form body, which Payload appends to the URL.
  if (readsAsPost(request) && FORM.test(type)) {
    const text = await request.text()
    return refusedQuery(new URLSearchParams(text)) ?? withBody(request, text)
  }
  if (!READ_BODIES.test(type) && !graphql) {
    const text = await request.text()
    if (!text) return withBody(request, null)
    return new Refusal(415, 'Send the body as JSON (application/json) or multipart/form-data.')
  }
  // GraphQL's handler reads any spelling of JSON's media type (it drops the header's spaces).
  const json = graphql
    ? type.replace(/\s/g, '').toLowerCase().split(';')[0] === 'application/json'
    : /^application\/json\b/i.test(type)
  if (!json) return undefined
  const text = await request.text()
  const problem = text.trim() ? notAnObject(text) : undefined
  // GraphQL's body is Payload's GraphQL handler's to read once it is JSON (a batch is an array).
  if (problem && !(graphql && problem === 'must be a JSON object'))
    return new Refusal(400, `The body ${problem}.`)
  if (graphql && text.trim()) {
    const query = (JSON.parse(text) as { query?: unknown } | null)?.query
    const refused = typeof query === 'string' ? refusedGraphQL(query) : undefined
    if (refused) return new Refusal(400, refused)
  }
  return withBody(request, text)
}

/** The request with its body, read already, given again. */
const withBody = (request: Request, body: string | null) =>
  new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
  })

/** busboy's words for a multipart body that ends early or is not multipart at all. */
export const MALFORMED_FORM =
  /^(Unexpected end of (form|file)|Malformed part header|Multipart: Boundary not found)$/

/**
 * A multipart body Payload could not read (cut short, no boundary) is the request's mistake: 400.
 * Payload lets busboy's error through as a 500; this runs for every door of Payload's REST, the
 * plugin's installs included. Payload logs the error before its hooks run.
 */
export const malformedFormAfterError: AfterErrorHook = ({ error }) =>
  errorChain(error).some((current) => MALFORMED_FORM.test(current.message))
    ? { status: 400, response: { errors: [{ message: 'The multipart body is malformed.' }] } }
    : undefined
