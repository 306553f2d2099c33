/**
 * A Map that keeps at most `limit` entries: past it, the entry read or written longest ago goes.
 * For values kept in one process to save work (never state another instance needs): a bound keeps
 * memory flat under any mix of keys, and dropping the least recently used keeps the hot ones.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size
  }

  has(key: K): boolean {
    return this.entries.has(key)
  }

  /** The value, now the most recently used (a Map iterates in insertion order: re-inserting moves it last). */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined
    const value = this.entries.get(key)!
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: K, value: V): this {
    this.entries.delete(key)
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, value)
    return this
  }

  /** Whether this key held this value and was dropped. */
  deleteIf(key: K, value: V): boolean {
    return this.entries.get(key) === value && this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }
}
