import type { CollectionBeforeChangeHook, CollectionConfig, Field } from 'payload'
import { authoredContentAccess, passwordProtection } from '../calendar/access/collectionAccess'
import { AUTHORED_VERSIONS, authoredFields, excerptField, imageField } from './fields/authored'
import { descriptionFields } from './fields/description'
import { slugField } from './fields/slug'
import { guardDrafts, separateAutosaves } from './drafts'
import { enforceAuthorship, guardDuplicates, guardRestores } from './hooks/authored'
import { publishWhenDue, queuePublication } from './scheduledPublishing'
import { fillDefaultLanguage } from './hooks/defaultLanguage'
import { eventsOfDeleted, eventsOfTrashed, leaveEventsWhenTrashed } from './hooks/trashedLinks'
import { takingTurns } from './hooks/rowLocks'

type LinkedCollection = {
  slug: 'venues' | 'organizers'
  labels: CollectionConfig['labels']
  columns: string[]
  /** Besides the description, excerpt and image: what a password withholds. */
  protectedFields: string[]
  beforeChange?: CollectionBeforeChangeHook[]
  /** After the image: the collection's own fields. */
  fields: Field[]
}

/**
 * Venues and organizers: authored records an event links to, with the same access, versions,
 * drafts, scheduled publishing and password protection; they differ only in their own fields.
 */
export function linkedCollection(linked: LinkedCollection): CollectionConfig {
  const protection = passwordProtection([
    'description',
    'descriptionHtml',
    'excerpt',
    'image',
    ...linked.protectedFields,
  ])
  return {
    slug: linked.slug,
    labels: linked.labels,
    access: authoredContentAccess,
    versions: AUTHORED_VERSIONS,
    forceSelect: protection.forceSelect,
    admin: { useAsTitle: 'name', defaultColumns: linked.columns },
    defaultSort: '-publishedAt',
    hooks: {
      beforeChange: [
        separateAutosaves,
        enforceAuthorship,
        publishWhenDue,
        ...(linked.beforeChange ?? []),
      ],
      afterChange: [fillDefaultLanguage('name'), queuePublication, leaveEventsWhenTrashed],
      afterRead: protection.afterRead,
      beforeOperation: [
        takingTurns(eventsOfTrashed(linked.slug)),
        eventsOfDeleted,
        guardDrafts,
        guardDuplicates,
        guardRestores,
        ...protection.beforeOperation,
      ],
    },
    fields: [
      { name: 'name', type: 'text', required: true, localized: true },
      ...descriptionFields(),
      excerptField(),
      slugField(linked.slug, 'name'),
      ...authoredFields(),
      imageField(),
      ...linked.fields,
    ],
  }
}
