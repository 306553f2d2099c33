import { createHash, createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { PayloadRequest } from 'payload'
import type { RestContext } from './context'
import type { AnyRoute } from './route'

/** Who an answer is for: anyone, one signed-in user, or whoever holds the password a request tries. */
export type Visibility = 'anonymous' | 'password' | `user:${string}`

/**
 * Signed-in answers depend on the user (their items, their role), so each user has their own; a
 * `password` may unlock what anonymous readers do not see, so such reads are never taken for
 * anonymous ones.
 */
export function visibilityOf(req: PayloadRequest, raw: Record<string, unknown>): Visibility {
  const user = req.user as
    { id: number | string; collection?: string; role?: string | null } | null | undefined
  if (user) return `user:${user.collection ?? ''}:${user.id}:${user.role ?? ''}`
  return raw.password === undefined ? 'anonymous' : 'password'
}

/** Object keys sorted at every level, lists in their order: equal parameters, equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    )
  return value
}

let build: string | undefined

/** The build serving: another build may answer the same URL differently at the same revision. */
function buildId(): string {
  build ??= (() => {
    try {
      return readFileSync(path.join(process.cwd(), '.next', 'BUILD_ID'), 'utf8').trim()
    } catch {
      return ''
    }
  })()
  return build
}

/** What an answer is made of besides the handler's code, as the request gives it. */
export type TagInputs = {
  ctx: RestContext
  route: AnyRoute
  /** The URL asked, absolute and without its query: `https://host/fr/api/cal/events/v1/events`. */
  url: string
  /** Query and path parameters as parsed (qs), before validation. */
  raw: Record<string, unknown>
  shadowedByPath: Record<string, unknown>
  visibility: Visibility
  /** The part of the clock the route reads (`route.clock`), read once by the pipeline. */
  clock: string | undefined
}

/**
 * The strong ETag of a GET, known before any page query (docs/api.md §14.1): everything the answer is
 * a function of — the content revision, the build, the normalized URL (the namespace root with its
 * origin and language root, the path, the parameters with their keys sorted), the caller's
 * visibility, the media type and whatever part of the clock the route says it reads. A write
 * anywhere moves the revision, so every list's ETag changes with it. Keyed with the signing secret,
 * which every instance shares, so a tag reveals nothing of a password it was made with and another
 * instance gives the same one. Undefined without a revision (read replicas): the body's hash then.
 */
export function answerTag({
  ctx,
  route,
  url,
  raw,
  shadowedByPath,
  visibility,
  clock,
}: TagInputs): string | undefined {
  if (ctx.revision === undefined) return undefined
  const material = JSON.stringify([
    buildId(),
    ctx.revision,
    url,
    canonical(raw),
    canonical(shadowedByPath),
    visibility,
    route.produces ?? 'application/json',
    clock ?? '',
  ])
  return `"${createHmac('sha256', ctx.req.payload.secret).update(material).digest('base64url').slice(0, 27)}"`
}

/** The ETag of a body, when no revision names the content. */
export function bodyTag(body: Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`
}

/**
 * Whether `If-None-Match` names this tag (weak comparison, as RFC 9110 §13.1.2 asks for this header),
 * or is `*` for an answer known to exist (`exists`): before the answer is made, `*` matches nothing,
 * since an item missing or not the caller's to read has no representation to match.
 */
export function ifNoneMatch(header: string | null, etag: string, exists: boolean): boolean {
  if (!header) return false
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '')
    return (exists && tag === '*') || tag === etag
  })
}
