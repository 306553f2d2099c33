import type { Payload } from 'payload'

/**
 * Whether Payload pushed the schema at connect instead of migrating (dev mode, or an app that adds
 * the plugin with `push`), decided as `@payloadcms/db-postgres` decides it: outside production, unless
 * the adapter's `push` is false or the CLI is migrating.
 */
export function schemaPushed(payload: Payload): boolean {
  const { push } = payload.db as unknown as { push?: boolean }
  return (
    process.env.NODE_ENV !== 'production' &&
    process.env.PAYLOAD_MIGRATING !== 'true' &&
    push !== false
  )
}
