import type { CollectionConfig } from 'payload'
import path from 'node:path'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf } from '../calendar/access/collectionAccess'
import { dataDirectory } from '../database/dataDirectory'
import { missingFileNotFound } from './missingFile'

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
    staticDir: path.join(dataDirectory(), 'media'),
    mimeTypes: ['image/*'],
    handlers: [missingFileNotFound],
    imageSizes: [
      { name: 'thumbnail', width: 150, height: 150, position: 'centre' },
      { name: 'medium', width: 300 },
      { name: 'large', width: 1024 },
    ],
  },
  fields: [{ name: 'alt', type: 'text', required: true }],
}
