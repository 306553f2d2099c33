/**
 * What a run knows of its source's mappings, in its memory only: a run is one job on one instance,
 * and runs of one source never overlap (an advisory lock), so nothing else writes them meanwhile.
 * The items of a batch are looked up in one statement, and a linked item (the venue a thousand events
 * name) is looked up, and found to exist, once a run instead of once an event. What an item records
 * becomes known to the run only once its transaction commits: an item that fails leaves nothing
 * behind here either.
 */
import type { PayloadRequest } from 'payload'
import {
  findMapping,
  mappingKey,
  mappingsOfItems,
  recordMapping,
  type MappedKind,
  type Mapping,
} from './mapping'

/** Mappings a run keeps at most (a run of a million items holds no million): past it, it starts again from the database. */
const KEPT = 50_000

export class RunMappings {
  /** Committed mappings by `mappingKey`; null: none. */
  private readonly known = new Map<string, Mapping | null>()
  /** Local items found to exist this run (a venue or organizer: outside the trash), by `mappingKey(kind, localId)`. */
  private readonly present = new Set<string>()

  constructor(readonly source: string) {}

  /** Reads the mappings of the keys not yet known, in one statement. */
  async preload(req: PayloadRequest, keys: { kind: MappedKind; sourceId: string }[]) {
    const unknown = keys.filter((key) => !this.known.has(mappingKey(key.kind, key.sourceId)))
    if (!unknown.length) return
    this.bound(unknown.length)
    const found = await mappingsOfItems(
      req,
      this.source,
      unknown.map(({ kind, sourceId }) => ({ kind, sourceId })),
    )
    for (const { kind, sourceId } of unknown) {
      const key = mappingKey(kind, sourceId)
      this.known.set(key, found.get(key) ?? null)
    }
  }

  /** A committed mapping: known, else read (in `req`'s transaction) and kept. */
  async find(
    req: PayloadRequest,
    kind: MappedKind,
    sourceId: string,
  ): Promise<Mapping | undefined> {
    const key = mappingKey(kind, sourceId)
    if (!this.known.has(key)) {
      this.bound(1)
      this.known.set(key, (await findMapping(req, this.source, kind, sourceId)) ?? null)
    }
    return this.known.get(key) ?? undefined
  }

  /** A committed mapping, if the run knows it without asking the database. */
  peek(kind: MappedKind, sourceId: string): Mapping | undefined {
    return this.known.get(mappingKey(kind, sourceId)) ?? undefined
  }

  isPresent(kind: MappedKind, localId: number): boolean {
    return this.present.has(mappingKey(kind, String(localId)))
  }

  /** What an item's committed transaction recorded and found. */
  learn(written: Map<string, Mapping>, present: Iterable<string>) {
    this.bound(written.size)
    for (const [key, mapping] of written) this.known.set(key, mapping)
    for (const key of present) this.present.add(key)
  }

  /** An item's view of the mappings, inside its transaction. */
  forItem(req: PayloadRequest): ItemMappings {
    return new ItemMappings(this, req)
  }

  private bound(adding: number) {
    if (this.known.size + adding <= KEPT && this.present.size <= KEPT) return
    this.known.clear()
    this.present.clear()
  }
}

/** One item's mappings: what its transaction wrote first, then the run's; `commit` once the transaction has. */
export class ItemMappings {
  private readonly written = new Map<string, Mapping>()
  private readonly found = new Set<string>()

  constructor(
    private readonly run: RunMappings,
    private readonly req: PayloadRequest,
  ) {}

  async find(kind: MappedKind, sourceId: string): Promise<Mapping | undefined> {
    return this.written.get(mappingKey(kind, sourceId)) ?? this.run.find(this.req, kind, sourceId)
  }

  /** A mapping written; `linkable` unless its local item is left in the trash, where no link may go. */
  async record(
    kind: MappedKind,
    sourceId: string,
    mapping: Mapping,
    linkable = true,
  ): Promise<void> {
    await recordMapping(this.req, this.run.source, kind, sourceId, mapping)
    this.written.set(mappingKey(kind, sourceId), mapping)
    if (linkable) this.found.add(mappingKey(kind, String(mapping.localId)))
  }

  /** Whether a mapped local item may still be linked: asked of the database (`exists`) once a run. */
  async exists(kind: MappedKind, localId: number, exists: () => Promise<boolean>) {
    const key = mappingKey(kind, String(localId))
    if (this.found.has(key) || this.run.isPresent(kind, localId)) return true
    if (!(await exists())) return false
    this.found.add(key)
    return true
  }

  commit() {
    this.run.learn(this.written, this.found)
  }
}
