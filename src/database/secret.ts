import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** PAYLOAD_SECRET, or one generated on first start and kept (mode 0600) under the data directory. */
export function payloadSecret(dataDir: string): string {
  if (process.env.PAYLOAD_SECRET) return process.env.PAYLOAD_SECRET
  const file = path.join(dataDir, 'secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}
