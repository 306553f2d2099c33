import type { Reader } from './reader'

/**
 * Whom a write is for: a reader (the caller, the language, the clock, the site's settings) and the
 * address the write came through, whose origin is this site's own for images given by URL.
 */
export type Writer = Reader & { root: string }
