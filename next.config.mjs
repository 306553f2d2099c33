import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Upstream's list URLs end in a slash (`/events/?page=2`): serve them as they are, no redirect.
  skipTrailingSlashRedirect: true,
  // The app's own sources; tests and tools are type-checked by `npm test` (tsc over the whole tree).
  typescript: { tsconfigPath: 'tsconfig.build.json' },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
