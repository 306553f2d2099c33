import type { IncomingHttpHeaders } from 'node:http'
import { REQUEST_ID_HEADER } from './requestId'
import type { Sent } from './sent'

/** What the namespace (in Next's bundle) tells the server in front of it (in its own bundle): one global, under a registered symbol. */
export type NamespaceFacts = {
  /** The content revision while PostgreSQL pushes it to this instance; undefined otherwise (nothing is served then). */
  revision(): string | undefined
  /**
   * When an answer with this ETag may be served to any anonymous caller: the revision it was made at,
   * and, for an answer that reads the clock (a window from "now"), the time (ms) its URL stops giving it.
   */
  sharedAt(tag: string): { revision: string; until?: number } | undefined
  /** Takes a read from the caller's rate limit: the headers to send, or undefined when the caller is over it. */
  admitRead(headers: Headers): Promise<Record<string, string> | undefined>
  /**
   * How to answer a namespace request without Next's router (`rest/withoutNext.ts`), started when the
   * request's turn comes (`turns.ts`; a write's, in the write lane); undefined for a URL outside the
   * namespace. The request is made only for a URL it answers: a write's body can be read once.
   */
  answer(url: string, request: () => Request): (() => Promise<Sent>) | undefined
  /**
   * Whether the requests' query counts are reported (`X-Query-Count`, tests and benchmarks only): the
   * answers made outside Next then also say who answered (`X-Answered-By`: `front-door`, `namespace`).
   */
  countsQueries: boolean
  /** Whether the request carries a valid sign-in token (`signedToken.ts`): load shedding lets its writes through. */
  signedIn(headers: IncomingHttpHeaders): boolean
  /** The CORS headers Payload's `cors` setting gives an answer to a request from `origin`: a refusal in front of Next needs them to be readable. */
  corsHeaders(origin: string | undefined): Readonly<Record<string, string>>
  /** Payload's admin route (`/admin`): its pages are Next's, and sign a caller in where no guard of ours sees it. */
  adminRoute: string
  /** Whether the database answers within 3 s (`server/health.ts`). */
  databaseAnswers(): Promise<boolean>
}

export const NAMESPACE_FACTS = Symbol.for('calendar.namespaceFacts')

export function namespaceFacts(): NamespaceFacts | undefined {
  return (globalThis as { [NAMESPACE_FACTS]?: NamespaceFacts })[NAMESPACE_FACTS]
}

/**
 * The CORS headers of an answer the server in front of Next gives itself (the gate's refusals, a
 * failure no handler answered): Payload's for the request's origin, so that a page on another origin
 * can read it, with its `Retry-After` and its request id, as it can the namespace's own answers.
 */
export function gateCorsHeaders(origin: string | undefined): Record<string, string> {
  return {
    ...namespaceFacts()?.corsHeaders(origin),
    'Access-Control-Expose-Headers': `Retry-After, ${REQUEST_ID_HEADER}`,
  }
}
