/**
 * The widget's one script (`src/widget/`), bundled by every build beside Next's output and served
 * at `/calendar/widget.js`. Readers' browsers keep it a day and revalidate it by its ETag for a week
 * after (docs/public-face.md): the URL carries no version, so a release must reach them.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'

export function widgetBundlePath(root: string): string {
  return path.join(root, '.next', 'calendar-widget.js')
}

export const WIDGET_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800'

type Bundle = { body: Buffer; etag: string }

let kept: Promise<Bundle> | undefined

/** The built file and its ETag, read once: a build replaces the process along with the file. */
export function widgetBundle(): Promise<Bundle> {
  kept ??= readFile(widgetBundlePath(process.cwd())).then((body) => ({
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  }))
  kept.catch(() => {
    kept = undefined
  })
  return kept
}
