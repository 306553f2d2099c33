import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')

/**
 * Node options of a process that imports payload.config.ts outside Next: the Payload CLI, the seed
 * and the import CLI. Under Node's `node` condition, Lexical's packages (the rich-text editor's)
 * resolve to entry files that pick their development or production build with a top-level
 * `await import()`, and on Node 20 the import of that graph sometimes never settles: the event loop
 * drains and the process ends having done nothing (8 of 10 plain imports of
 * @payloadcms/richtext-lexical, about 1 in 16 runs of the import CLI through tsx, more under load).
 * The `production` condition resolves them to their production build without the await (none stalled
 * in 32 runs). The guard still turns any other such stall into exit 75, so that it is never taken for
 * success.
 */
export const CONFIG_LOADING_OPTIONS = [
  '--conditions=production',
  '--require',
  path.join(root, 'scripts', 'stall-guard.cjs'),
]

/**
 * `NODE_OPTIONS` with `options` after what it holds: each quoted where it has a space, as Node's parser
 * of the variable reads quotes, so that a project in a folder such as `My Projects` loads its guard
 * (unquoted, Node looked for a module `/home/me/My` and every config-loading command failed).
 */
export function withNodeOptions(given: string | undefined, options: string[]): string {
  const quoted = options.map((option) =>
    /[\s"\\]/.test(option) ? `"${option.replace(/["\\]/g, (c) => `\\${c}`)}"` : option,
  )
  return [given ?? '', ...quoted].join(' ').trim()
}
