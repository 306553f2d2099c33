/**
 * A generated request as plain data, so that fast-check can print, shrink and replay it from a
 * seed.
 */
export type Auth =
  'anonymous' | 'administrator' | 'bad-jwt' | 'expired-jwt' | 'bad-api-key' | 'malformed'

/** A body as data; `huge` and `stream` are materialised only when sent. */
export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'text'; text: string; contentType?: string }
  | { kind: 'bytes'; bytes: number[]; contentType?: string }
  | { kind: 'form'; pairs: [string, string][]; contentType: string }
  | { kind: 'multipart'; raw: string; contentType: string }
  | { kind: 'huge'; bytes: number; contentType: string }
  | { kind: 'stream'; bytes: number; contentType: string }
  | { kind: 'bomb'; text: string; contentType: string }

export type FuzzRequest = {
  method: string
  /** Language root (`/fr`) or none. */
  prefix: string
  /** Path under the namespace, already percent-encoded: `/events/12`. */
  path: string
  /** Query string without `?`, already encoded (may hold deliberate garbage). */
  query: string
  auth: Auth
  headers: Record<string, string>
  body: BodySpec
  /** The route-table entry it was made for (`GET /events/{id}`), for statistics. */
  target: string
}

/** Hostile path segments, malformed percent-encoding among them (`queryArbitrary` does the query string). */
