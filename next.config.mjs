import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Upstream's list URLs end in a slash (`/events/?page=2`): serve them as they are, no redirect.
  skipTrailingSlashRedirect: true,
  // The app's own sources; tests and tools are type-checked by `npm test` (tsc over the whole tree).
  typescript: { tsconfigPath: 'tsconfig.build.json' },
  // Next loads every route's server code at start by default: the admin's alone is tens of MB that
  // an instance serving only the namespace never needs (docs/performance.md, "Memory").
  experimental: { preloadEntriesOnStart: false },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
