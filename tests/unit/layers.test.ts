/**
 * The layers of docs/architecture.md, checked on the sources: no module imports from a layer above
 * its own, no door imports another door, no modules import each other in a circle, and the tools
 * do not lean on the tests.
 */
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sourceFiles } from '../support/sourceFiles'

const repository = path.resolve(import.meta.dirname, '..', '..')
const src = path.join(repository, 'src')

/** Lowest first. A module may import from its own layer and the ones before it. */
const LAYERS: { name: string; folders: string[] }[] = [
  { name: 'core', folders: ['calendar', 'i18n'] },
  { name: 'infrastructure', folders: ['database', 'network'] },
  {
    name: 'model',
    folders: ['collections', 'globals', 'options.ts', 'migrations', 'payload-types.ts'],
  },
  { name: 'operations', folders: ['operations'] },
  { name: 'server', folders: ['server'] },
  {
    name: 'doors',
    folders: ['rest', 'imports', 'webhooks', 'jobs', 'components', 'site', 'widget'],
  },
  { name: 'assembly', folders: ['plugin.ts', 'app', 'proxy.ts', 'seed'] },
]
const DOORS = ['rest', 'imports', 'webhooks', 'jobs', 'components', 'site', 'widget']
/** The doors a door runs: a job is the queue's way into an import or a delivery, and only calls it. */
const RUNS: Record<string, string[]> = { jobs: ['imports', 'webhooks'] }

function topOf(file: string): string {
  return path.relative(src, file).split(path.sep)[0]!
}

function layerOf(file: string): number {
  const top = topOf(file)
  const layer = LAYERS.findIndex((candidate) => candidate.folders.includes(top))
  if (layer < 0)
    throw new Error(`${path.relative(src, file)} belongs to no layer of docs/architecture.md`)
  return layer
}

/**
 * The namespace door's parts, lowest first: a request's context, a route's type and the HTTP
 * pieces; the parameters' and answers' schemas; the renderers (JSON, iCalendar); the handlers; the
 * door's own assembly (the route table, the pipeline, its caches and mounts), the rest of `rest/`.
 */
const NAMESPACE_PARTS = [
  ['context.ts', 'route.ts', 'http'],
  ['schemas'],
  ['serialize', 'ical'],
  ['handlers'],
]

function partOf(file: string): number {
  const top = path.relative(path.join(src, 'rest'), file).split(path.sep)[0]!
  const part = NAMESPACE_PARTS.findIndex((names) => names.includes(top))
  return part < 0 ? NAMESPACE_PARTS.length : part
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

/** The path aliases of tsconfig.json (`cal-events/rsc`, `@payload-config`...), to the files they name. */
const ALIASES = new Map(
  Object.entries(
    (
      JSON.parse(readFileSync(path.join(repository, 'tsconfig.json'), 'utf8')) as {
        compilerOptions: { paths: Record<string, string[]> }
      }
    ).compilerOptions.paths,
  ).map(([alias, [target]]) => [alias, path.resolve(repository, target!)]),
)

/**
 * Every module a text names: `import … from`, `export … from`, side-effect `import '…'` and dynamic
 * `import('…')`; runtime and type imports alike (a type import up a layer couples the layers all the
 * same). Package names are left out, aliases are kept.
 */
function specifiersOf(text: string): string[] {
  const written = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!)
  return written.filter((specifier) => specifier.startsWith('.') || ALIASES.has(specifier))
}

function importsOf(file: string): string[] {
  return specifiersOf(readFileSync(file, 'utf8'))
    .map((specifier) => ALIASES.get(specifier) ?? resolve(file, specifier))
    .filter((target): target is string => Boolean(target))
}

const files = sourceFiles(src)
const graph = new Map(
  files.map((file) => [file, importsOf(file).filter((target) => target.startsWith(src))]),
)

describe('layers', () => {
  it('see every way a module names another', () => {
    const text = [
      "import { a } from './static'",
      "import type { B } from '../typed'",
      "export { c } from './reexported'",
      "import './side-effect'",
      "const lazy = await import('./dynamic')",
      "import { RecurrenceField } from 'cal-events/client'",
      "import { z } from 'zod'",
    ].join('\n')
    expect(specifiersOf(text).sort()).toEqual([
      '../typed',
      './dynamic',
      './reexported',
      './side-effect',
      './static',
      'cal-events/client',
    ])
  })

  it('no module imports from a layer above its own', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${path.relative(src, file)} -> ${path.relative(src, target)}`),
    )
    expect(upward).toEqual([])
  })

  it('no door imports another door, but the jobs the imports and webhooks they run', () => {
    const across = [...graph].flatMap(([file, targets]) =>
      targets
        .filter(
          (target) =>
            DOORS.includes(topOf(file)) &&
            DOORS.includes(topOf(target)) &&
            topOf(file) !== topOf(target),
        )
        .filter((target) => !RUNS[topOf(file)]?.includes(topOf(target)))
        .map((target) => `${path.relative(src, file)} -> ${path.relative(src, target)}`),
    )
    expect(across).toEqual([])
  })

  it("the widget, which runs in readers' browsers, imports only itself and the core, and no package", () => {
    const widget = files.filter((file) => topOf(file) === 'widget')
    expect(widget.length).toBeGreaterThan(0)
    const outside = widget.flatMap((file) => [
      ...graph
        .get(file)!
        .filter((target) => !['widget', ...LAYERS[0]!.folders].includes(topOf(target)))
        .map((target) => `${path.relative(src, file)} -> ${path.relative(src, target)}`),
      ...[
        ...readFileSync(file, 'utf8').matchAll(
          /(?:^|\n)\s*import[^'"]*?from\s+['"]([^.][^'"]*)['"]/g,
        ),
      ].map((match) => `${path.relative(src, file)} -> ${match[1]}`),
    ])
    expect(outside).toEqual([])
  })

  it('the operations import no door, and the event, venue, organizer and term handlers read and write through them, not the queries', () => {
    const intoDoors = [...graph].flatMap(([file, targets]) =>
      topOf(file) === 'operations'
        ? targets
            .filter((target) => DOORS.includes(topOf(target)))
            .map((target) => path.relative(src, target))
        : [],
    )
    expect(intoDoors).toEqual([])
    const queries = ['events', 'linked', 'terms'].map((resource) => path.join('database', resource))
    for (const handler of [
      'events.ts',
      'ical.ts',
      'eventsCsv.ts',
      'linked.ts',
      'terms.ts',
      'writes.ts',
      'termWrites.ts',
    ].map((name) => path.join(src, 'rest', 'handlers', name))) {
      const targets = (graph.get(handler) ?? []).map((target) => path.relative(src, target))
      expect(
        targets.filter((target) => queries.some((folder) => target.startsWith(folder))),
      ).toEqual([])
      expect(targets.some((target) => target.startsWith('operations'))).toBe(true)
    }
  })

  it('inside the namespace door, each part imports only its own and the parts below it', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      topOf(file) === 'rest'
        ? targets
            .filter((target) => topOf(target) === 'rest' && partOf(target) > partOf(file))
            .map((target) => `${path.relative(src, file)} -> ${path.relative(src, target)}`)
        : [],
    )
    expect(upward).toEqual([])
  })

  it('no modules import each other in a circle', () => {
    const circles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        circles.push(
          [...trail.slice(trail.indexOf(file)), file]
            .map((step) => path.relative(src, step))
            .join(' -> '),
        )
        return
      }
      state.set(file, 'open')
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file])
      state.set(file, 'done')
    }
    for (const file of files) visit(file, [])
    expect(circles).toEqual([])
  })

  it('the tools (scripts/, bench/) do not import the tests', () => {
    const tools = ['scripts', 'bench'].flatMap((folder) =>
      sourceFiles(path.join(repository, folder)),
    )
    const intoTests = tools.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(path.join(repository, 'tests')))
        .map(
          (target) => `${path.relative(repository, file)} -> ${path.relative(repository, target)}`,
        ),
    )
    expect(intoTests).toEqual([])
  })
})
