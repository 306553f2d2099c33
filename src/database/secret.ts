import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** PAYLOAD_SECRET, or one generated on first start and kept (mode 0600) under the data directory. */
export function payloadSecret(dataDir: string): string {
  if (process.env.PAYLOAD_SECRET) return process.env.PAYLOAD_SECRET
  return keptSecret(path.join(dataDir, 'secret'))
}

/** The secret kept in `file`, or a new one kept there from now on. */
export function keptSecret(file: string): string {
  return readSecret(file) ?? keepSecret(file, newSecret())
}

export function newSecret(): string {
  return randomBytes(32).toString('hex')
}

/** The secret kept in `file`, if there is one. */
export function readSecret(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined
}

/**
 * Writes `secret` to `file` for its owner alone (mode 0600), whole or not at all: a file cut short
 * by a crash would be read back as another secret.
 */
export function keepSecret(file: string, secret: string): string {
  mkdirSync(path.dirname(file), { recursive: true })
  const partial = `${file}.partial-${process.pid}`
  writeFileSync(partial, secret + '\n', { mode: 0o600 })
  renameSync(partial, file)
  return secret
}
