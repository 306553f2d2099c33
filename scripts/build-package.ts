/**
 * `npm run build:package`: the calendar plugin as an npm package, in `dist/` (`npm pack ./dist`).
 * The app and the plugin share this repository but not their dependencies: the app needs the
 * embedded PostgreSQL, Next's admin, tsx... an installing app needs none of them, and it already has
 * Payload and React. So the package gets a manifest of its own, written here: its dependencies are
 * exactly the packages its bundle imports, at the versions the app pins and tests.
 *
 * The JS is bundled by esbuild with every package left external: relative imports become files Node
 * and Next load as they are (the sources' extensionless imports are for a bundler), and code shared by
 * the entry points lives in one chunk, so module state (the pool instrumentation, caches) exists once.
 * The declarations are tsc's, only those the entry points' types reach.
 */
import { spawnSync } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import { buildWidget } from './widgetBundle'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'dist')
const types = path.join(dist, 'types')

/** Export subpath → entry source; the declarations mirror `src/` under `types/`. */
const ENTRIES: Record<string, { name: string; source: string }> = {
  '.': { name: 'index', source: 'src/plugin.ts' },
  './rsc': { name: 'rsc', source: 'src/components/rsc.ts' },
  './client': { name: 'client', source: 'src/components/client.ts' },
  './routes': { name: 'routes', source: 'src/rest/languageRoots.ts' },
}

/** The `<cal-events>` widget, one self-contained script: `cal-events/widget.js`. */
const WIDGET = 'widget.js'

/** Read from disk by path at run time (src/rest/reference.ts), so no import names it. */
const RESOLVED_AT_RUN_TIME = ['swagger-ui-dist']

/**
 * Packages the installing app provides, so the plugin runs on the app's copy (a second Payload,
 * React or Next in the plugin's own node_modules breaks them): Payload's from the version tested
 * here on, React and Next from their major (the components are plain JSX and Next's hooks).
 */
function peerRange(name: string, version: string): string | undefined {
  if (name === 'payload' || name.startsWith('@payloadcms/')) return `^${version}`
  // The admin's components run inside the app's Next (its templates, router and search parameters).
  if (name === 'react' || name === 'next') return `^${version.split('.')[0]}.0.0`
  return undefined
}

/** Where tsc puts the declaration of a source file, relative to the declaration folder. */
function declarationOf(source: string): string {
  return path.relative('src', source).replace(/\.tsx?$/, '.d.ts')
}

function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

async function bundle(): Promise<Set<string>> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.values(ENTRIES).map(({ name, source }) => ({ in: source, out: name })),
    outdir: dist,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    metafile: true,
    logLevel: 'warning',
  })
  const imported = new Set<string>()
  for (const output of Object.values(result.metafile.outputs)) {
    for (const { path: specifier, external } of output.imports)
      if (external && !isBuiltin(specifier)) imported.add(packageName(specifier))
  }
  return imported
}

/** tsc's declarations of the whole plugin, into a scratch folder: the package keeps only the public ones. */
async function declarations(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'cal-events-types-'))
  const tsc = spawnSync(
    path.join(root, 'node_modules', '.bin', 'tsc'),
    ['-p', 'tsconfig.package.json', '--declarationDir', folder],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
  if (tsc.status !== 0) throw new Error('tsc failed on the package declarations')
  return folder
}

/**
 * Copies the declarations an entry's types reach, following relative imports, with the `.js`
 * extension they need under Node's resolution. What no entry reaches stays out, above all the app's
 * generated types, whose augmentation of `payload` would override the installing app's own.
 */
async function copyDeclarations(
  from: string,
  file: string,
  copied = new Set<string>(),
): Promise<void> {
  if (copied.has(file)) return
  copied.add(file)
  const reached: string[] = []
  const text = (await readFile(path.join(from, file), 'utf8')).replace(
    /((?:from|import\()\s*['"])(\.{1,2}\/[^'"]+)(['"])/g,
    (whole, before: string, specifier: string, after: string) => {
      const target = path.join(path.dirname(file), specifier)
      for (const [candidate, suffix] of [
        [`${target}.d.ts`, '.js'],
        [path.join(target, 'index.d.ts'), '/index.js'],
      ] as const) {
        if (!existsSync(path.join(from, candidate))) continue
        reached.push(candidate)
        return `${before}${specifier}${suffix}${after}`
      }
      return whole
    },
  )
  await mkdir(path.dirname(path.join(types, file)), { recursive: true })
  await writeFile(path.join(types, file), text)
  for (const next of reached) await copyDeclarations(from, next, copied)
}

async function manifest(imported: Set<string>) {
  const app = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    name: string
    version: string
    engines: Record<string, string>
    dependencies: Record<string, string>
  }
  const dependencies: Record<string, string> = {}
  const peerDependencies: Record<string, string> = {}
  for (const name of [...imported, ...RESOLVED_AT_RUN_TIME].sort()) {
    const version = app.dependencies[name]
    if (!version)
      throw new Error(`the plugin imports ${name}, which is not a dependency in package.json`)
    const peer = peerRange(name, version)
    if (peer) peerDependencies[name] = peer
    else dependencies[name] = version
  }
  const exports = {
    ...Object.fromEntries(
      Object.entries(ENTRIES).map(([subpath, { name, source }]) => [
        subpath,
        { types: `./types/${declarationOf(source)}`, default: `./${name}.js` },
      ]),
    ),
    // The browser's script, for a site to serve as it is (docs/public-face.md).
    [`./${WIDGET}`]: `./${WIDGET}`,
  }
  return {
    name: app.name,
    version: app.version,
    description:
      'Events calendar for Payload CMS 3: collections, admin components (calendar view, recurrence editor) and the cal/events/v1 REST namespace',
    type: 'module',
    engines: app.engines,
    exports,
    dependencies,
    peerDependencies,
  }
}

await rm(dist, { recursive: true, force: true })
const imported = await bundle()
await buildWidget(path.join(dist, WIDGET))
const declared = await declarations()
for (const { source } of Object.values(ENTRIES))
  await copyDeclarations(declared, declarationOf(source))
await rm(declared, { recursive: true, force: true })
await writeFile(
  path.join(dist, 'package.json'),
  `${JSON.stringify(await manifest(imported), null, 2)}\n`,
)
await copyFile(path.join(root, 'README.md'), path.join(dist, 'README.md'))
console.log(`package built in ${path.relative(root, dist)}/`)
