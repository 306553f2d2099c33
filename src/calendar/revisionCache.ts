import { BoundedMap } from './boundedMap'

/**
 * The content revision whose entries a per-revision cache holds (this one, the answer caches, the
 * shared tags). It only moves forward: a request that read an older revision, before a write, gets
 * what it makes for itself alone, and does not take the cache back to it.
 */
export class RevisionMark {
  private revision: string | undefined

  /** The revision held, if any. */
  get current(): string | undefined {
    return this.revision
  }

  /** Whether `revision` is older than the one held (revisions are the counter's decimal text). */
  behind(revision: string): boolean {
    return (
      this.revision !== undefined &&
      revision !== this.revision &&
      BigInt(revision) < BigInt(this.revision)
    )
  }

  /** Moves to `revision` if it is newer; true when it did, and what was held is now stale. */
  advance(revision: string): boolean {
    if (revision === this.revision || this.behind(revision)) return false
    this.revision = revision
    return true
  }
}

/**
 * Values computed once per revision and key in this instance, shared by concurrent requests
 * while they are computed. Without a revision nothing is cached.
 */
export class RevisionCache {
  private readonly mark = new RevisionMark()
  private readonly entries: BoundedMap<string, Promise<unknown>>

  /** `maxEntries`: past this many, the entry used longest ago is dropped (large values want a small bound). */
  constructor(maxEntries: number) {
    this.entries = new BoundedMap(maxEntries)
  }

  /** A newer revision is known: what this one holds is dropped now rather than at its next read. */
  advance(revision: string): void {
    if (this.mark.advance(revision)) this.entries.clear()
  }

  get<T>(revision: string | undefined, key: string, compute: () => Promise<T>): Promise<T> {
    if (revision === undefined || this.mark.behind(revision)) return compute()
    this.advance(revision)
    const known = this.entries.get(key)
    if (known) return known as Promise<T>
    const computed = compute()
    this.entries.set(key, computed)
    // A failure is not a value: the next request computes again.
    computed.catch(() => this.entries.deleteIf(key, computed))
    return computed
  }

  /**
   * Values of many keys at once, kept under `kind:key`: those not yet known at this revision are
   * computed by one call of `load` (one query for a whole page), which answers the keys it found;
   * the others get `absent`.
   */
  async getMany<T>(
    revision: string | undefined,
    kind: string,
    keys: string[],
    load: (missing: string[]) => Promise<Map<string, T>>,
    absent: T,
  ): Promise<Map<string, T>> {
    const unique = [...new Set(keys)]
    const missing: string[] = []
    let batch: Promise<Map<string, T>> | undefined
    const values = await Promise.all(
      unique.map((key) =>
        this.get(revision, `${kind}:${key}`, () => {
          missing.push(key)
          // Every key missing is known once `map` has run: the batch starts on the next tick, with all of them.
          batch ??= Promise.resolve().then(() => load(missing))
          return batch.then((found) => (found.has(key) ? found.get(key)! : absent))
        }),
      ),
    )
    return new Map(unique.map((key, index) => [key, values[index]!]))
  }
}
