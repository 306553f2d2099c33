/**
 * `npm run bench:richtext`: what turning a description's HTML into the admin's rich text costs a
 * write, at four sizes (every write and import of an event with a description pays it; the bench's
 * writes carry one line). Each conversion is its own task, as each write is. The conversion reads
 * only the editor's config, so a config with the app's editor (`lexicalEditor()`, Payload's
 * defaults) is built, beside an adapter that is never connected.
 */
import { postgresAdapter } from '@payloadcms/db-postgres'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import { buildConfig } from 'payload'
import { htmlToRichText } from '../src/collections/fields/richText'
import { percentile } from './percentile'

const config = await buildConfig({
  secret: 'bench',
  editor: lexicalEditor(),
  db: postgresAdapter({ pool: { connectionString: 'postgres://localhost/never-connected' } }),
})

const PART =
  '<h2>About</h2><p>Join us for <strong>an evening</strong> of <em>music</em> and <a href="https://example.com">talks</a>.</p><ul><li>one</li><li>two</li></ul>'
const SIZES: Record<string, string> = {
  'one line': '<p>Description of event 1.</p>',
  'a heading, a paragraph, a list': PART,
  'three of them': PART.repeat(3),
  'ten of them': PART.repeat(10),
}
const task = () => new Promise((resolve) => setImmediate(resolve))

for (const [name, html] of Object.entries(SIZES)) {
  for (let n = 0; n < 100; n++) await htmlToRichText(config, html + n)
  const times: number[] = []
  for (let n = 0; n < 400; n++) {
    await task()
    const started = performance.now()
    await htmlToRichText(config, html + n)
    times.push(performance.now() - started)
  }
  console.log(
    `${name} (${html.length} bytes): median ${percentile(times, 0.5)} ms, p90 ${percentile(times, 0.9)} ms`,
  )
}
process.exit(0)
