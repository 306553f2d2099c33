import path from 'node:path'

/** Where the service keeps its state on this machine: the embedded cluster, the secret, uploads. */
export function dataDirectory(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || '.data')
}
