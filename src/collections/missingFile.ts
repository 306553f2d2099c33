import { stat } from 'node:fs/promises'
import path from 'node:path'
import { headersWithCors, type CollectionConfig } from 'payload'

type FileHandler = NonNullable<
  Exclude<CollectionConfig['upload'], boolean | undefined>['handlers']
>[number]

/**
 * `GET /api/media/file/{name}` (or `imports/file`) of a file that is not on the disk: 404. Payload's
 * own handler answers any name the caller may read and the disk lacks with a 500 and an error in the
 * log, so a mistyped or guessed name looked like the server's failure. A name that leaves the folder is left to
 * Payload (400), and so is a collection whose files are stored elsewhere (a storage adapter's
 * handler serves them).
 */
async function notFoundWhenMissing(
  ...[req, { params }]: Parameters<FileHandler>
): Promise<Response | undefined> {
  const upload = req.payload.collections[params.collection as 'media']?.config.upload
  if (!upload || upload.disableLocalStorage) return
  const folder = path.resolve(upload.staticDir || params.collection)
  const file = path.resolve(folder, params.filename)
  if (!file.startsWith(folder + path.sep)) return
  const found = await stat(file).then(
    (stats) => stats.isFile(),
    () => false,
  )
  if (found) return
  return Response.json(
    { errors: [{ message: req.t('general:notFound') }] },
    { status: 404, headers: headersWithCors({ headers: new Headers(), req }) },
  )
}

// Payload takes a handler's answer if it is a Response (`instanceof`), else goes on: its type cannot say "a promise of either".
export const missingFileNotFound = notFoundWhenMissing as FileHandler
