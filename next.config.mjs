import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The app's own sources; tests and tools are type-checked by `npm test` (tsc over the whole tree).
  typescript: { tsconfigPath: 'tsconfig.build.json' },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
