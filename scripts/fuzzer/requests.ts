/**
 * Whole requests over the route table: method, language prefix, path, query, credentials, headers,
 * body.
 */
import fc from 'fast-check'
import { bodyArbitrary } from './bodies'
import { type FuzzFixtures } from './fixtures'
import { LANGUAGE_CODES } from './hostileValues'
import { pathArbitrary } from './paths'
import { queryArbitrary } from './queries'
import { type Auth, type FuzzRequest } from './request'
import { METHODS, type Pools, type Target, TARGETS } from './routes'

const EXTRA_HEADERS: Record<string, string>[] = [
  {},
  { 'If-None-Match': '*' },
  { 'If-None-Match': '"x", W/"y"' },
  { 'Accept-Language': 'ar, fr;q=0.5' },
  { 'X-HTTP-Method-Override': 'DELETE' },
  { 'X-WP-Method-Override': 'DELETE' },
  { Origin: 'http://evil.example' },
  { Accept: 'application/xml' },
  { Cookie: 'payload-token=garbage' },
  { 'X-Forwarded-Host': 'evil.example' },
  { 'X-Forwarded-Proto': 'javascript' },
  { Range: 'bytes=0-10' },
]

/** Requests for one route-table entry: its method, or a method it does not have (→ rest_no_route). */
function requestArbitrary(
  target: Target,
  pools: Pools,
  auths: readonly Auth[],
): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 9, arbitrary: fc.constant(target.method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
  )
  const prefix = fc.oneof(
    { weight: 12, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.constantFrom(...LANGUAGE_CODES.map((code) => `/${code}`)) },
    { weight: 1, arbitrary: fc.constantFrom('/xx', '/EN', '/fr-FR', '/%00', '/..') },
  )
  return fc
    .record({
      method,
      prefix,
      path: pathArbitrary(target.template, pools),
      query: fc.oneof(
        { weight: 2, arbitrary: fc.constant('') },
        { weight: 3, arbitrary: queryArbitrary(target.params) },
      ),
      auth: fc.constantFrom(...auths),
      headers: fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.constantFrom(...EXTRA_HEADERS) },
      ),
      body: bodyArbitrary(target),
    })
    .map((request) => ({
      ...request,
      // Bodies only where a client can send one.
      body:
        request.method === 'GET' || request.method === 'HEAD'
          ? ({ kind: 'none' } as const)
          : request.body,
      target: `${target.method} ${target.template || '/'}`,
    }))
}

/** Requests over every route and method of the table, evenly. */
function anyRequest(
  pools: Pools,
  auths: readonly Auth[],
  filter: (target: Target) => boolean = () => true,
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...TARGETS.filter(filter).map((target) => requestArbitrary(target, pools, auths)))
}

/** Forged, expired and malformed credentials must count as anonymous; plain anonymous callers are the most common. */
const NOT_ADMIN: Auth[] = [
  'anonymous',
  'anonymous',
  'anonymous',
  'bad-jwt',
  'expired-jwt',
  'bad-api-key',
  'malformed',
]

const isRead = (request: FuzzRequest) => ['GET', 'HEAD', 'OPTIONS'].includes(request.method)

/** GET, HEAD and OPTIONS on every path: a quarter as the administrator, who sees everything. */
export function readRequests(fixtures: FuzzFixtures): fc.Arbitrary<FuzzRequest> {
  const get = (target: Target) => target.method === 'GET'
  return fc
    .oneof(
      { weight: 3, arbitrary: anyRequest(fixtures.readerPools, NOT_ADMIN, get) },
      { weight: 1, arbitrary: anyRequest(fixtures.readerPools, ['administrator'], get) },
    )
    .filter(isRead)
}

/**
 * Every other method on every path (a method a path does not have included): half as the administrator,
 * aimed at the fuzz's own records only, so that the rest of the database is left alone.
 */
export function writeRequests(fixtures: FuzzFixtures): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof(
      { weight: 1, arbitrary: anyRequest(fixtures.readerPools, NOT_ADMIN) },
      { weight: 1, arbitrary: anyRequest(fixtures.adminPools, ['administrator']) },
    )
    .filter((request) => !isRead(request))
}
