/**
 * Shared generators and checks of the namespace fuzzers: `tests/api/fuzz.test.ts` (a few thousand
 * requests inside `npm test`) and `scripts/fuzz.ts` (`npm run fuzz`, 100k requests). Nothing here
 * imports vitest, so that the script can use it outside a test run.
 *
 * A generated request is plain data (`FuzzRequest`), so fast-check can print, shrink and replay it
 * from a seed. Routes and methods come from the namespace's own route table (`ROUTES`), path
 * parameters are filled from pools of real ids and slugs (which the runner fills as it creates
 * fixtures) or with adversarial values, and query strings and bodies mix the route's own parameter
 * names with hostile keys and values: wrong types, huge numbers, unicode and RTL text, NUL bytes,
 * SQL and JSON fragments, PHP-bracket bombs, invalid dates, every language code and bad ones, random
 * content types, malformed JSON and multipart, and bodies of 10 MB.
 *
 * The rules every answer must follow (docs/api.md §11): no status ≥ 500; every 4xx is
 * `{ code, message, data: { status } }` with the HTTP status equal to `data.status`; no response sets
 * a cookie or grows a header out of a CR/LF in the input; a body over the limit is a 413; nothing
 * protected or unpublished reaches a caller who is not the administrator; and, checked by the runners
 * with a fingerprint of the database, a request that failed wrote nothing.
 */
export { makeFixtures, highWaterMarks, learn, removeSince, type FuzzFixtures } from './fixtures'
export { changedTables, fingerprinter, writeViolations, type Fingerprinter } from './fingerprints'
export { describe, violations } from './oracles'
export type { FuzzRequest } from './request'
export { readRequests, writeRequests } from './requests'
export { TARGETS } from './routes'
export { send, type Outcome } from './send'
export { Tally } from './tally'
