import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertServerUserCanReach, firstClosedFolder } from '../../src/database/embedded'

describe('embedded PostgreSQL started as root', () => {
  let scratch: string
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'cal-reach-'))
    await chmod(scratch, 0o755)
    await mkdir(path.join(scratch, 'open', 'data'), { recursive: true })
    await mkdir(path.join(scratch, 'closed', 'data'), { recursive: true, mode: 0o755 })
    await chmod(path.join(scratch, 'closed'), 0o700)
  })
  afterAll(() => rm(scratch, { recursive: true, force: true }))

  it('finds nothing to refuse under folders others may traverse', async () => {
    expect(
      await firstClosedFolder([path.join(scratch, 'open', 'data', 'postgres')]),
    ).toBeUndefined()
  })

  it('names the 0700 folder the postgres user could not enter, with what to do', async () => {
    const target = path.join(scratch, 'closed', 'data', 'postgres')
    expect(await firstClosedFolder([path.join(scratch, 'open', 'data'), target])).toBe(
      path.join(scratch, 'closed'),
    )
    await expect(assertServerUserCanReach([target])).rejects.toThrow(
      `cannot enter ${path.join(scratch, 'closed')}. Put the project and DATA_DIR`,
    )
  })
})
