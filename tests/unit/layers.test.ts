/**
 * The layers of docs/architecture.md, checked on the sources: no module imports from a layer above
 * its own, no door imports another door, and no modules import each other in a circle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const src = path.resolve(import.meta.dirname, '..', '..', 'src')

/** Lowest first. A module may import from its own layer and the ones before it. */
const LAYERS: { name: string; folders: string[] }[] = [
  { name: 'core', folders: ['calendar', 'i18n'] },
  { name: 'infrastructure', folders: ['database'] },
  { name: 'model', folders: ['collections', 'globals', 'options.ts', 'migrations', 'payload-types.ts'] },
  { name: 'doors', folders: ['rest', 'ical', 'imports', 'webhooks', 'components'] },
  { name: 'assembly', folders: ['plugin.ts', 'app', 'proxy.ts', 'seed'] },
]
const DOORS = ['rest', 'ical', 'imports', 'webhooks']

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return sources(full)
    return /\.tsx?$/.test(name) ? [full] : []
  })
}

function topOf(file: string): string {
  return path.relative(src, file).split(path.sep)[0]!
}

function layerOf(file: string): number {
  const top = topOf(file)
  const layer = LAYERS.findIndex((candidate) => candidate.folders.includes(top))
  if (layer < 0) throw new Error(`${path.relative(src, file)} belongs to no layer of docs/architecture.md`)
  return layer
}

function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier)
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate
    } catch {
      // not this form of the path
    }
  }
  return undefined
}

/** Runtime and type imports alike: a type import up a layer couples the layers all the same. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map((match) => match[1]!)
  return found.map((specifier) => resolve(file, specifier)).filter((target): target is string => Boolean(target && target.startsWith(src)))
}

const files = sources(src)
const graph = new Map(files.map((file) => [file, importsOf(file)]))

describe('layers', () => {
  it('no module imports from a layer above its own', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${path.relative(src, file)} -> ${path.relative(src, target)}`),
    )
    expect(upward).toEqual([])
  })

  it('no door imports another door', () => {
    const across = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => DOORS.includes(topOf(file)) && DOORS.includes(topOf(target)) && topOf(file) !== topOf(target))
        .map((target) => `${path.relative(src, file)} -> ${path.relative(src, target)}`),
    )
    expect(across).toEqual([])
  })

  it('no modules import each other in a circle', () => {
    const circles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].map((step) => path.relative(src, step)).join(' -> '))
        return
      }
      state.set(file, 'open')
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file])
      state.set(file, 'done')
    }
    for (const file of files) visit(file, [])
    expect(circles).toEqual([])
  })
})
