/**
 * Every named cache of an instance, in one table: what it holds, its key, what ends an entry and
 * what it may take. Each cache is made here by its name (`boundedCache`, `revisionCacheOf`,
 * `instanceCache`, with `cacheBudget` for those whose class lives in a door), so its budget and its
 * invalidation are read in this file, not at the call site. All of them only save work in one
 * process: nothing another instance needs lives in them (throttles and counters are in PostgreSQL).
 * It sits in the core because the core's own caches (wall clocks, known bounds) are made here too.
 *
 * Not listed, and made where they are used:
 * - memoization within one request, in a WeakMap keyed by the request or its parameters, gone with
 *   it: the request's date window (`dates/resolve.ts`), the site's address per request
 *   (`rest/serialize/common.ts`), images downloaded by one write (`collections/mediaFromUrl.ts`),
 *   rules parsed by one write (`collections/series.ts`, in `req.context`);
 * - tables over a finite set of keys, filled once: `Intl` readers and VTIMEZONEs per zone
 *   (`dates/wallClock.ts`, `rest/ical/zones.ts`), the API reference's assets (`rest/reference.ts`),
 *   the documentation's paths per configuration (`rest/handlers/discovery.ts`) and descriptions
 *   (`rest/schemas/responseParts.ts`).
 */
import { BoundedMap } from './boundedMap'
import { numberSetting } from './settings'
import { RevisionCache } from './revisionCache'

/** What a cache may take: a number of entries, or its share of the bytes a setting gives in megabytes. */
type Budget = { entries: number } | { setting: 'ANSWER_CACHE_MB'; share: number }

type Cache = {
  holds: string
  key: string
  invalidation: string
  budget: Budget
  /** How it is made: a `BoundedMap`, a `RevisionCache`, or a class of its own given `cacheBudget`. */
  kind: 'bounded' | 'revision' | 'own'
}

/** Entry budgets bound keys that come from callers (URLs, parameters), so memory stays flat under any mix. */
export const CACHES = {
  // The two answer caches fill with the same answers, so they split one budget (docs/performance.md, "Memory").
  answers: {
    holds:
      "the namespace's anonymous answers as rendered (`rest/answerCache.ts`), one per Payload instance",
    key: 'the ETag (`answerTag.ts`), which names the content revision and everything else the answer is made of',
    invalidation:
      'a newer revision drops all, as it is pushed to the instance or at the first request that reads it; past the budget the least recently served go; an answer over 1/8 of the budget is not kept',
    budget: { setting: 'ANSWER_CACHE_MB', share: 1 / 2 },
    kind: 'own',
  },
  frontDoor: {
    holds:
      "the same answers as Next sent them, served before Next's router (`server/frontDoor.ts`), one per server process",
    key: 'the URL and the headers that shape an answer',
    invalidation:
      'a newer revision drops all, at the next request of any kind; an answer that reads the clock ends at its time; past the budget the least recently served go. Beside it, the namespace URLs whose answer is being made (until it is sent, at most 2 s) and the hashes of those made but not kept at this revision (cleared with it, or at 10,000)',
    budget: { setting: 'ANSWER_CACHE_MB', share: 1 / 2 },
    kind: 'own',
  },
  sharedTags: {
    holds:
      'the ETags of anonymous answers the front door may serve again, with when their clock moves on (`rest/sharedAnswers.ts`)',
    key: 'the ETag',
    invalidation:
      'a newer revision clears them as it is pushed; at the budget they are all cleared',
    budget: { entries: 20_000 },
    kind: 'own',
  },
  signInTokens: {
    holds:
      "sign-in tokens whose signature verified, with their claims, times and the secret that verified them (`signInToken.ts`: the gate's lane choice and the users' strategy): never the user, read on every request",
    key: 'the token',
    invalidation:
      'none but the budget (whether a token verifies depends only on it and the secret; its `exp` and `nbf` are checked on every use): the entry used longest ago goes',
    budget: { entries: 2_000 },
    kind: 'bounded',
  },
  userStatements: {
    holds:
      "the statement that reads a signed-in user, derived from the users collection's fields, or that the strategy leaves them to Payload's (`database/users/signIn.ts`)",
    key: "the users collection's sanitized config",
    invalidation:
      'none but the budget (a config does not change while it serves): the entry used longest ago goes',
    budget: { entries: 8 },
    kind: 'bounded',
  },
  revision: {
    holds:
      'values derived from the content (settings, totals, term counts and entries, records a page embeds, the longest event), one per Payload instance',
    key: 'a string naming the value and its parameters (`term-count:<kind>:<id>`, `settings`...)',
    invalidation:
      'a newer content revision clears all, as it is pushed or at the first read at it; past the budget the entry used longest ago goes',
    budget: { entries: 5_000 },
    kind: 'revision',
  },
  icalFeeds: {
    holds:
      'anonymous iCalendar feeds as written (`rest/handlers/ical.ts`), one per Payload instance: a few, being large',
    key: "the feed's parameters and language",
    invalidation:
      'a newer content revision clears all, as it is pushed or at the first read at it; past the budget the entry used longest ago goes',
    budget: { entries: 8 },
    kind: 'revision',
  },
  statementBodies: {
    holds: "prepared statements of a page's body in SQL (`database/events/eventPage.ts`)",
    key: 'the access rule it states (`PageAccess.key`)',
    invalidation:
      'none but the budget (a statement depends only on its key): the entry used longest ago goes',
    budget: { entries: 200 },
    kind: 'bounded',
  },
  pageIdStatements: {
    holds:
      "prepared statements of a list's page ids and total (`database/events/eventMatch.ts`), values as placeholders",
    key: "the statement's shape: its plan, order, which filters the list has (not their values) and the access rule",
    invalidation:
      'none but the budget (a statement depends only on its key): the entry used longest ago goes',
    budget: { entries: 500 },
    kind: 'bounded',
  },
  wallClocks: {
    holds: 'wall clocks already formatted (`dates/format.ts`)',
    key: 'the zone and the instant',
    invalidation: 'none but the budget (a pure function): the entry used longest ago goes',
    budget: { entries: 20_000 },
    kind: 'bounded',
  },
  knownBounds: {
    holds: "a list's date bounds already read (`dates/resolve.ts`)",
    key: 'the zone, the parameter and its input (or the site day, for the default window)',
    invalidation:
      'none but the budget (the site day is in the key): the entry used longest ago goes',
    budget: { entries: 5_000 },
    kind: 'bounded',
  },
  zoneDayOffsets: {
    holds: "a zone's offset through a UTC day, or that it changes within it (`rest/ical/times.ts`)",
    key: 'the zone and the UTC day',
    invalidation:
      'none but the budget (the tz database does not change while the process runs): the entry used longest ago goes',
    budget: { entries: 20_000 },
    kind: 'bounded',
  },
  plainTexts: {
    holds:
      "descriptions' HTML read as plain text for iCalendar (`rest/ical/text.ts`), of 2,048 characters at most",
    key: 'the HTML',
    invalidation: 'none but the budget (a pure function): the entry used longest ago goes',
    budget: { entries: 2_000 },
    kind: 'bounded',
  },
} as const satisfies Record<string, Cache>

export type CacheName = keyof typeof CACHES
type NameOf<Kind extends Cache['kind']> = {
  [Name in CacheName]: (typeof CACHES)[Name]['kind'] extends Kind ? Name : never
}[CacheName]

const MEGABYTE = 1024 * 1024

/** A cache's budget: its entries, or its bytes from the setting (0 when the setting turns caching off). */
export function cacheBudget(name: CacheName): number {
  const budget: Budget = CACHES[name].budget
  if ('entries' in budget) return budget.entries
  return numberSetting(budget.setting) * MEGABYTE * budget.share
}

/** A process-wide cache bounded by its listed number of entries. */
export function boundedCache<K, V>(name: NameOf<'bounded'>): BoundedMap<K, V> {
  return new BoundedMap<K, V>(cacheBudget(name))
}

const perOwner = new WeakMap<object, Map<CacheName, unknown>>()

/** The cache of this name kept for this owner (a Payload instance), made by `make` the first time. */
export function instanceCache<T>(
  owner: object,
  name: NameOf<'own'>,
  make: (budget: number) => T,
): T {
  return kept(owner, name, () => make(cacheBudget(name)))
}

/** The per-revision cache of this name kept for this owner (a Payload instance). */
export function revisionCacheOf(owner: object, name: NameOf<'revision'>): RevisionCache {
  return kept(owner, name, () => new RevisionCache(cacheBudget(name)))
}

/** A cache whose entries belong to one content revision: told of a newer one, it drops them. */
export type PerRevision = { advance(revision: string): void }

const isPerRevision = (cache: unknown): cache is PerRevision =>
  typeof (cache as Partial<PerRevision> | null)?.advance === 'function'

/** Tells this owner's caches of a newer content revision, as PostgreSQL pushes it (`database/revision.ts`). */
export function advanceCaches(owner: object, revision: string): void {
  for (const cache of perOwner.get(owner)?.values() ?? [])
    if (isPerRevision(cache)) cache.advance(revision)
}

function kept<T>(owner: object, name: CacheName, make: () => T): T {
  let caches = perOwner.get(owner)
  if (!caches) perOwner.set(owner, (caches = new Map()))
  if (!caches.has(name)) caches.set(name, make())
  return caches.get(name) as T
}
