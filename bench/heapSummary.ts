/**
 * What a V8 heap snapshot holds, by kind of object: the bytes and the count of every constructor's
 * objects (their own size, not what they keep alive), the largest first. A leak shows as a count that
 * follows the requests served. The raw file opens in Chrome's DevTools (Memory → Load) for the paths
 * that keep them. The whole file is read as one string: a heap of several hundred MB needs DevTools.
 */
import { readFileSync } from 'node:fs'

type Snapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } }
  nodes: number[]
  strings: string[]
}

/** Kinds whose names are their contents (strings) or V8's internals, grouped under one label. */
const GROUPED = new Set([
  'string',
  'concatenated string',
  'sliced string',
  'code',
  'number',
  'regexp',
  'symbol',
  'bigint',
])

export type HeapKind = { kind: string; bytes: number; count: number }

export function heapKinds(file: string): { total: number; kinds: HeapKind[] } {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8')) as Snapshot
  const fields = snapshot.meta.node_fields
  const types = snapshot.meta.node_types[0]
  const [type, name, size] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field))
  const kinds = new Map<string, HeapKind>()
  let total = 0
  for (let at = 0; at < nodes.length; at += fields.length) {
    const of = types[nodes[at + type!]!]!
    const kind = GROUPED.has(of) ? `(${of})` : `${of} ${strings[nodes[at + name!]!]!.slice(0, 60)}`
    const bytes = nodes[at + size!]!
    total += bytes
    const known = kinds.get(kind) ?? { kind, bytes: 0, count: 0 }
    known.bytes += bytes
    known.count++
    kinds.set(kind, known)
  }
  return { total, kinds: [...kinds.values()].sort((a, b) => b.bytes - a.bytes) }
}
