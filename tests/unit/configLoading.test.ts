import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { withNodeOptions } from '../../scripts/configLoading'

const folder = mkdtempSync(path.join(tmpdir(), 'My Projects "quoted" \\ '))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** What a Node process started with `NODE_OPTIONS` prints. */
function nodeWith(nodeOptions: string): string {
  return execFileSync(process.execPath, ['-e', 'process.stdout.write(String(globalThis.loaded))'], {
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
    encoding: 'utf8',
  })
}

describe('the options a config-loading command gets in NODE_OPTIONS', () => {
  it('load a module from a folder with spaces, quotes and backslashes in its path, after what was given', () => {
    const module = path.join(folder, 'guard.cjs')
    writeFileSync(module, 'globalThis.loaded = (globalThis.loaded ?? "") + "guard"')
    const first = path.join(folder, 'first.cjs')
    writeFileSync(first, 'globalThis.loaded = "first+"')
    expect(
      nodeWith(withNodeOptions(`--require ${JSON.stringify(first)}`, ['--require', module])),
    ).toBe('first+guard')
    expect(nodeWith(withNodeOptions(undefined, ['--require', module]))).toBe('guard')
  })
})
