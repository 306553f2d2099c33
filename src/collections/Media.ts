import type { CollectionAfterChangeHook, CollectionConfig } from 'payload'
import { unlink } from 'node:fs/promises'
import path from 'node:path'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf } from '../calendar/access/collectionAccess'
import { dataDirectory } from '../database/dataDirectory'
import { onRollback } from '../database/transaction'
import { readableImage } from './imageFile'
import { missingFileNotFound } from './missingFile'

const MEDIA_DIRECTORY = path.join(dataDirectory(), 'media')

/**
 * An image stored by a write that then fails (a namespace write refused after its image by URL was
 * downloaded, an import's item): the record is rolled back, and so are its files, which would
 * otherwise stay in the media directory, 10 MB a try.
 */
const filesRolledBack: CollectionAfterChangeHook = ({ doc, operation, req }) => {
  if (operation !== 'create') return doc
  const sizes = Object.values((doc.sizes ?? {}) as Record<string, { filename?: unknown } | null>)
  const names = [doc.filename, ...sizes.map((size) => size?.filename)]
  onRollback(req, async () => {
    for (const name of names)
      if (typeof name === 'string') await unlink(path.join(MEDIA_DIRECTORY, path.basename(name)))
  })
  return doc
}

export const Media: CollectionConfig = {
  slug: 'media',
  labels: { singular: 'Image', plural: 'Images' },
  access: {
    read: () => true,
    create: ({ req }) => capabilities.upload(actorOf(req.user)),
    update: ({ req }) => capabilities.editOthers(actorOf(req.user)),
    delete: ({ req }) => capabilities.editOthers(actorOf(req.user)),
  },
  upload: {
    staticDir: MEDIA_DIRECTORY,
    mimeTypes: ['image/*'],
    handlers: [missingFileNotFound],
    imageSizes: [
      { name: 'thumbnail', width: 150, height: 150, position: 'centre' },
      { name: 'medium', width: 300 },
      { name: 'large', width: 1024 },
    ],
  },
  hooks: { beforeOperation: [readableImage], afterChange: [filesRolledBack] },
  fields: [{ name: 'alt', type: 'text', required: true }],
}
