import type qs from 'qs'

/**
 * How query strings and urlencoded bodies are read: PHP-style brackets (`categories[0]=3`, `categories[]=3`,
 * `organizer[0][organizer]=A`), as websites written against the upstream API send them, with limits so
 * that a hostile request cannot build huge or deep structures:
 * - nesting stops at 5 levels (deeper brackets stay part of the last key);
 * - indexes of 100 and more, or more than 100 `[]` entries, turn the array into an object, which parameter
 *   validation then rejects as not a list;
 * - only the first 1000 parameters are read; the rest are ignored, as PHP's `max_input_vars` does;
 * - keys that would reach `Object.prototype` (`__proto__`, `constructor`, `toString`, ...) are dropped.
 * - a key repeated without brackets takes its last value (`page=1&page=2` is page 2), as PHP reads it:
 *   websites written against the upstream API page on by appending `&page=N` to a link that already
 *   has one. Only brackets (`status[]=a&status[]=b`) make a list.
 * `a=` gives `''` and a bare `a` gives `''` too (no `null`), so every leaf is a string.
 */
export const BRACKET_PARSE_OPTIONS = {
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 1000,
  allowPrototypes: false,
  strictNullHandling: false,
  duplicates: 'last',
} as const satisfies qs.IParseOptions

/** A URL's query string (`?a=1`), as the pipeline reads it with `qs`: these limits, its `?` skipped. */
export const QUERY_PARSE_OPTIONS = {
  ...BRACKET_PARSE_OPTIONS,
  ignoreQueryPrefix: true,
} as const satisfies qs.IParseOptions
