import type { Reader } from './reader'

/**
 * Whom a write is for: a reader (the caller, the language, the clock, the site's settings) and the
 * address the write came through, whose origin is this site's own for images given by URL.
 */
export type Writer = Reader & {
  root: string
  /**
   * A write the calendar makes on its own authority (an import, a subscription's refresh): Payload's
   * access is not asked, as for a run started by the operator, who has no user.
   */
  system?: boolean
}
