import { booleanSetting, logLevel } from './src/calendar/settings'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import { seoPlugin } from '@payloadcms/plugin-seo'
import { buildConfig } from 'payload'
import sharp from 'sharp'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { calendarPlugin, eventSeo } from './src/plugin'
import { databaseAdapter } from './src/database/adapter'
import { migrations } from './src/migrations'
import { requestLogFields } from './src/server/requestId'

const dirname = path.dirname(fileURLToPath(import.meta.url))
const corsOrigins = (process.env.CORS_ORIGINS || '*')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)

export default buildConfig({
  serverURL: process.env.SERVER_URL || '',
  secret: process.env.PAYLOAD_SECRET || '',
  admin: {
    avatar: 'default',
    importMap: { baseDir: dirname },
    meta: { titleSuffix: ' · Calendar' },
  },
  editor: lexicalEditor(),
  db: databaseAdapter(migrations),
  sharp,
  // Payload allows any origin only for the string '*' (an array is an allow-list of exact origins).
  cors: corsOrigins.includes('*') ? '*' : corsOrigins,
  telemetry: false,
  // In production, one JSON line per event (pino's own format) that log collectors read as it is;
  // Payload's default pretty-prints an event's fields over several lines.
  // Each line logged while a request runs carries its id (docs/operations.md, "Request ids").
  logger:
    process.env.NODE_ENV === 'production'
      ? { options: { level: logLevel(), mixin: requestLogFields } }
      : undefined,
  typescript: { outputFile: path.resolve(dirname, 'src/payload-types.ts') },
  plugins: [
    calendarPlugin({
      runJobs: booleanSetting('JOBS_AUTORUN'),
      publicPages: booleanSetting('PUBLIC_PAGES'),
    }),
    seoPlugin({ collections: ['events'], uploadsCollection: 'media', ...eventSeo }),
  ],
})
