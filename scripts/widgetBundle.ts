/**
 * The `<cal-events>` widget as one classic script (an IIFE: a `<script src>` from another origin
 * needs no CORS, unlike a module), minified for its 25 KB budget (docs/public-face.md). The app
 * serves it (`npm run build`) and the plugin package ships it (`npm run build:package`).
 */
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')

export async function buildWidget(outfile: string): Promise<void> {
  const { build } = await import('esbuild')
  await build({
    absWorkingDir: root,
    entryPoints: ['src/widget/index.ts'],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
}
