import { BoundedMap } from './boundedMap'

/**
 * Values computed once per revision and key in this instance, shared by concurrent requests
 * while they are computed. Without a revision nothing is cached.
 */
export class RevisionCache {
  private revision: string | undefined
  private readonly entries: BoundedMap<string, Promise<unknown>>

  /** `maxEntries`: past this many, the entry used longest ago is dropped (large values want a small bound). */
  constructor(maxEntries: number) {
    this.entries = new BoundedMap(maxEntries)
  }

  /** A newer revision is known: what this one holds is dropped now rather than at its next read. */
  advance(revision: string): void {
    if (this.revision !== undefined && BigInt(revision) <= BigInt(this.revision)) return
    this.revision = revision
    this.entries.clear()
  }

  get<T>(revision: string | undefined, key: string, compute: () => Promise<T>): Promise<T> {
    if (revision === undefined) return compute()
    if (revision !== this.revision) {
      // A request that read an older revision than one already known: its value is for nobody else.
      if (this.revision !== undefined && BigInt(revision) < BigInt(this.revision)) return compute()
      this.advance(revision)
    }
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
