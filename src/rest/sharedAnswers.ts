import { headersWithCors, type Payload } from 'payload'
import { instanceCache } from '../calendar/caches'
import { RevisionMark } from '../calendar/revisionCache'
import { pushedRevision } from '../database/revision'
import { queryCountEnabled } from '../database/queryCount'
import { databaseAnswers } from '../server/health'
import { NAMESPACE_FACTS, type NamespaceFacts } from '../server/namespaceFacts'
import { limitRate } from './rateLimit'
import { carriesSignedToken } from '../server/signedToken'
import { sentWithoutNext } from './withoutNext'

/**
 * The namespace's side of the front door (`frontDoor.ts`): the ETags of the anonymous answers it has
 * served at the current revision, which the server in front of Next may then serve again, and what
 * that server needs of Payload (the pushed revision, the read rate limit).
 */
class SharedAnswers {
  private readonly mark = new RevisionMark()
  /** Each shared ETag, with the time its answer's clock moves on (undefined when it reads no clock). */
  private tags = new Map<string, number | undefined>()
  /** The CORS headers last given, for the origin they were given for: a flood refused comes from one origin, or none. */
  private cors:
    { origin: string | undefined; headers: Readonly<Record<string, string>> } | undefined

  /** `maxTags` bounds the tags one revision may hold: their URLs come from callers. */
  constructor(
    private readonly payload: Payload,
    private readonly maxTags: number,
  ) {}

  /** A newer revision is known: no tag of the older one is served again. */
  advance(revision: string): void {
    if (this.mark.advance(revision)) this.tags.clear()
  }

  shared(revision: string, tag: string, until: () => number | undefined): void {
    if (this.mark.behind(revision)) return
    this.advance(revision)
    if (this.tags.size >= this.maxTags) this.tags.clear()
    if (!this.tags.has(tag)) this.tags.set(tag, until())
  }

  /** Payload's CORS headers for a request from `origin`, which they depend on besides the config. */
  corsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
    if (!this.cors || this.cors.origin !== origin)
      this.cors = {
        origin,
        // Given to every refusal from that origin: frozen, so that none can change the next one's.
        headers: Object.freeze(
          Object.fromEntries(
            headersWithCors({
              headers: new Headers(),
              req: {
                payload: this.payload,
                headers: new Headers(origin ? { origin } : {}),
              } as never,
            }),
          ),
        ),
      }
    return this.cors.headers
  }

  facts(): NamespaceFacts {
    return {
      revision: () => pushedRevision(this.payload),
      sharedAt: (tag) =>
        this.mark.current !== undefined && this.tags.has(tag)
          ? { revision: this.mark.current, until: this.tags.get(tag) }
          : undefined,
      admitRead: (headers) =>
        limitRate(
          { req: { payload: this.payload, headers } as never, actor: null },
          'read',
          false,
        ).catch(() => undefined),
      answer: (url, request) => sentWithoutNext(this.payload, url, request),
      countsQueries: queryCountEnabled,
      signedIn: (headers) => carriesSignedToken(headers, this.payload),
      corsHeaders: (origin) => this.corsHeaders(origin),
      adminRoute: this.payload.config.routes.admin,
      databaseAnswers: () => databaseAnswers(this.payload),
    }
  }
}

/** This instance's registry, published to the server in front of Next when Payload starts (the plugin's `onInit`). */
export function namespaceRegistry(payload: Payload): SharedAnswers {
  return instanceCache(payload, 'sharedTags', (maxTags) => {
    const registry = new SharedAnswers(payload, maxTags)
    ;(globalThis as { [NAMESPACE_FACTS]?: NamespaceFacts })[NAMESPACE_FACTS] = registry.facts()
    return registry
  })
}

/**
 * Records that this anonymous answer, with this ETag, may be served to anyone at this revision;
 * `until` says when its URL stops giving it, for an answer that reads the clock (asked once per tag).
 */
export function answerShared(
  payload: Payload,
  revision: string,
  tag: string,
  until: () => number | undefined,
): void {
  namespaceRegistry(payload).shared(revision, tag, until)
}
