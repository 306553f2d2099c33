/**
 * The calendar's schema has one history, the migrations: nothing else in src/ makes a table, a
 * trigger, a function or an index. The one exception (docs/architecture.md, "The schema") applies
 * the migrations' own schema at start where Payload pushes the schema instead of migrating; only
 * the plugin's start does that.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sourceFiles } from '../support/sourceFiles'

const src = path.resolve(import.meta.dirname, '..', '..', 'src')
const migrations = path.join(src, 'migrations')

const DDL =
  /\bcreate\s+(?:or\s+replace\s+)?(?:unique\s+)?(?:unlogged\s+)?(table|trigger|function|index|sequence)\b/gi

describe('the schema', () => {
  const files = sourceFiles(src, (folder) => folder === migrations)

  it('is made by nothing in src/ outside the migrations', () => {
    const found = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(DDL)].map(
        (match) => `${path.relative(src, file)}: ${match[0]}`,
      ),
    )
    expect(found).toEqual([])
  })

  it('reaches the start only through the plugin, where Payload pushes the schema', () => {
    const importers = files.filter((file) =>
      /from\s+['"][^'"]*migrations\/calendarSchema['"]/.test(readFileSync(file, 'utf8')),
    )
    expect(importers.map((file) => path.relative(src, file))).toEqual(['plugin.ts'])
    expect(readFileSync(path.join(src, 'plugin.ts'), 'utf8')).toMatch(
      /if \(schemaPushed\(payload\)\) await rawQuery\(payload, sql\.raw\(CALENDAR_SCHEMA\)\)/,
    )
  })
})
