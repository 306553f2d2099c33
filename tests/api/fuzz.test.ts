/**
 * Property-based fuzzing of every route and method of the namespace (the route table, `ROUTES`),
 * anonymously (also with forged, expired and malformed credentials) and as the administrator, with
 * the generators of `scripts/fuzzer/`. Properties, for every answer:
 * - no status ≥ 500, and every 4xx is `{ code, message, data: { status } }` with HTTP status = data.status;
 * - no cookie set, no header grown out of a CR/LF in the input, bodies over the limit are a 413;
 * - nothing protected or unpublished reaches anyone but the administrator;
 * - a request that failed (≥ 400) wrote nothing, no anonymous request wrote, and no read wrote: the
 *   content tables' fingerprint (md5 of every row, through DATABASE_URL, which the launcher sets) is
 *   unchanged.
 *
 * Default: about 60 s and a few thousand requests (FUZZ_SECONDS, FUZZ_RUNS to change). On failure the
 * seed is printed: FUZZ_SEED=<seed> replays the same sequence (ids of records the server creates may
 * differ). `npm run fuzz` is the long mode (100k requests).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL } from '../support/api'
import {
  changedTables,
  describe as describeRequest,
  fingerprinter,
  highWaterMarks,
  learn,
  makeFixtures,
  readRequests,
  removeSince,
  send,
  Tally,
  TARGETS,
  violations,
  writeRequests,
  writeViolations,
  type Fingerprinter,
  type FuzzFixtures,
} from '../../scripts/fuzzer'

const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : Math.floor(Math.random() * 2 ** 31)
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 60)
const RUNS = Number(process.env.FUZZ_RUNS ?? 4000)
/** Reads go in concurrent batches; writes one at a time, so that a change of the database is the request's own. */
const READ_SHARE = 0.4
const BATCH = 8

let token: string
let marks: Record<string, number>
let fixtures: FuzzFixtures
let prints: Fingerprinter
const tally = new Tally()

beforeAll(async () => {
  if (!process.env.DATABASE_URL)
    throw new Error(
      'the fuzz checks writes in the database: run it through `npm test`, which sets DATABASE_URL',
    )
  token = await asAdmin()
  marks = await highWaterMarks(BASE_URL, token)
  fixtures = await makeFixtures(BASE_URL, token)
  prints = await fingerprinter(process.env.DATABASE_URL)
  console.log(
    `fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${TARGETS.length} route × method entries`,
  )
})

afterAll(async () => {
  console.log(`fuzz: ${tally.summary()}\n${tally.table()}`)
  await prints?.close()
  // What the fuzz created (fixtures included) goes, so that later test files see the database they expect.
  if (token && marks) await removeSince(BASE_URL, token, marks)
})

/**
 * Runs `run` on generated values for its share of the runs and of the time, and turns fast-check's
 * failure into one readable error with the seed and the request.
 */
async function check<T>(
  name: string,
  values: fc.Arbitrary<T>,
  run: (value: T) => Promise<void>,
  share: number,
  show: (value: T) => string,
): Promise<void> {
  let inFlight: Promise<unknown> = Promise.resolve()
  const property = fc.asyncProperty(values, (value) => {
    const work = run(value)
    inFlight = work.catch(() => undefined)
    return work
  })
  const details = await fc.check(property, {
    seed: SEED,
    numRuns: Math.round(RUNS * share),
    plugins: [fc.interruptAfterTimeLimit(SECONDS * 1000 * share)],
  })
  // The time limit abandons the run under way without stopping it: it must not overlap what comes next.
  await inFlight
  console.log(
    `fuzz ${name}: ${details.numRuns} runs${details.interrupted ? ' (time limit reached)' : ''}, seed ${details.seed}`,
  )
  if (details.failed) {
    const example = (details.counterexample as [T] | null)?.[0]
    throw new Error(
      `fuzz ${name} failed — seed ${details.seed}, path ${details.counterexamplePath} (FUZZ_SEED=${details.seed} to replay)\n` +
        `${example === undefined ? '' : show(example)}\n${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
    )
  }
  expect(details.numRuns, 'runs before the time limit').toBeGreaterThan(0)
}

describe('fuzzing every route of the namespace', () => {
  it(
    'reads (GET, HEAD, OPTIONS on every route): no 5xx, envelopes, no leaks, nothing written',
    async () => {
      const batches = fc.array(readRequests(fixtures), { minLength: BATCH, maxLength: BATCH })
      await check(
        'reads',
        batches,
        async (batch) => {
          const before = await prints.take()
          const outcomes = await Promise.all(
            batch.map((request) => send(BASE_URL, request, { administrator: token })),
          )
          const after = await prints.take()
          const problems: string[] = []
          outcomes.forEach((outcome, n) => {
            const request = batch[n]!
            tally.add(request, outcome)
            const found = violations(request, outcome, fixtures.secrets)
            if (found.length)
              problems.push(
                `${describeRequest(request)} → ${outcome.status} ${outcome.text.slice(0, 300)}\n  ${found.join('\n  ')}`,
              )
          })
          if (before !== after)
            problems.push(`reads wrote to ${changedTables(before, after).join(', ')}`)
          if (problems.length) throw new Error(problems.join('\n'))
        },
        READ_SHARE,
        (batch) => batch.map(describeRequest).join('\n'),
      )
    },
    (SECONDS * READ_SHARE + 240) * 1000,
  )

  it(
    'writes (POST, PUT, PATCH, DELETE on every route): no 5xx, envelopes, no leaks, a failed request wrote nothing',
    async () => {
      let before = await prints.take()
      let wrote = 0
      await check(
        'writes',
        writeRequests(fixtures),
        async (request) => {
          const outcome = await send(BASE_URL, request, { administrator: token })
          const after = await prints.take()
          tally.add(request, outcome)
          learn([fixtures.adminPools, fixtures.readerPools], request, outcome)
          const found = [
            ...violations(request, outcome, fixtures.secrets),
            ...writeViolations(request, outcome, before, after),
          ]
          if (before !== after) wrote++
          before = after
          if (found.length)
            throw new Error(
              `${describeRequest(request)} → ${outcome.status} ${outcome.text.slice(0, 300)}\n  ${found.join('\n  ')}`,
            )
        },
        1 - READ_SHARE,
        describeRequest,
      )
      // Without writes that succeed, "a failed request wrote nothing" would hold for want of trying.
      expect(wrote, 'requests that changed the database').toBeGreaterThan(0)
    },
    (SECONDS * (1 - READ_SHARE) + 240) * 1000,
  )
})
