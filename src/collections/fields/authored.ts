import type { Field } from 'payload'
import { validateCalendarDate } from './calendarDate'
import { STATUSES } from '../../calendar/access/capabilities'
import { passwordRead } from '../../calendar/access/collectionAccess'
import { AUTOSAVE_INTERVAL_MS } from '../drafts'

const STATUS_LABELS: Record<(typeof STATUSES)[number], string> = {
  publish: 'Published',
  future: 'Scheduled',
  draft: 'Draft',
  pending: 'Pending review',
  private: 'Private',
  trash: 'Trash',
}

/**
 * Every save of an event, venue or organizer keeps the state it left as a version (docs/api.md §21):
 * editors see who changed what and when, compare two versions and restore one. Series occurrences
 * follow their parent's versions rather than keeping their own. Edits are autosaved as drafts
 * (`collections/drafts.ts`), validated as a save is, so no autosave holds what a save would refuse.
 */
export const AUTHORED_VERSIONS = {
  maxPerDoc: 50,
  drafts: { autosave: { interval: AUTOSAVE_INTERVAL_MS }, validate: true },
} as const

/** Status, author, publication date and password: what events, venues and organizers share. */
export function authoredFields(): Field[] {
  return [
    {
      name: 'status',
      type: 'select',
      required: true,
      index: true,
      defaultValue: 'draft',
      options: STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] })),
      admin: { position: 'sidebar' },
      // A copy is a new draft, whatever its original's status (docs/api.md §21).
      hooks: { beforeDuplicate: [() => 'draft'] },
    },
    {
      // Payload's draft state (collections/drafts.ts), not a publication state. Named apart from
      // `status`, whose enum Payload's default name would take; lists read saved rows, where it is
      // always `published` (rows and versions from before autosave too, by this default), so it is
      // neither a column nor a filter.
      name: '_status',
      type: 'select',
      // Payload's own options (draft, published), which it adds to these.
      options: [],
      defaultValue: 'published',
      enumName: ({ tableName }) => `enum_${tableName}_autosave`,
      admin: { disableListColumn: true, disableListFilter: true },
    },
    {
      name: 'author',
      type: 'relationship',
      relationTo: 'users',
      index: true,
      admin: { position: 'sidebar' },
    },
    {
      // Who saved this state: each version records its editor.
      name: 'editedBy',
      label: 'Last edited by',
      type: 'relationship',
      relationTo: 'users',
      admin: { position: 'sidebar', readOnly: true },
      hooks: { beforeChange: [({ req, value }) => req.user?.id ?? value] },
    },
    {
      name: 'publishedAt',
      label: 'Publication date',
      type: 'date',
      index: true,
      admin: { position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } },
      validate: validateCalendarDate,
      hooks: { beforeDuplicate: [() => null] },
    },
    {
      name: 'password',
      type: 'text',
      access: { read: passwordRead },
      admin: { position: 'sidebar', description: 'Readers need this password to see the content.' },
    },
    {
      // Public knowledge that a password exists, so readers who may not see it still get the redacted shape.
      name: 'hasPassword',
      type: 'checkbox',
      defaultValue: false,
      admin: { hidden: true },
      hooks: {
        beforeChange: [
          ({ siblingData, originalDoc }) =>
            Boolean('password' in siblingData ? siblingData.password : originalDoc?.password),
        ],
      },
    },
  ]
}

export function imageField(): Field {
  return { name: 'image', type: 'upload', relationTo: 'media' }
}

export function excerptField(): Field {
  return { name: 'excerpt', type: 'textarea', localized: true }
}
