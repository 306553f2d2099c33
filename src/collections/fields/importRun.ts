import type { CollectionBeforeChangeHook, Field, TextField } from 'payload'
import { administratorsOnly } from '../../calendar/access/collectionAccess'

/** Failed items a run keeps with their reasons; past that, only the count grows. */
export const KEPT_FAILURES = 1000

/** What a site or feed import reads: an http(s) URL, or webcal:// for a feed. */
export const isImportUrl = (value: string) => /^(https?|webcals?):\/\/\S+$/i.test(value.trim())

/** The administrator who saved a run or subscription authors what it creates. */
export const recordCreator: CollectionBeforeChangeHook = ({ data, req, operation }) => {
  if (operation === 'create' && req.user) data.createdBy ??= req.user.id
  return data
}

export const countField = (name: string, label: string): Field => ({
  name,
  label,
  type: 'number',
  defaultValue: 0,
  admin: { readOnly: true },
})

/** A source's credentials: sent to it, never shown to anyone but administrators. */
export function credentialsField(admin: TextField['admin']): Field {
  return {
    name: 'credentials',
    type: 'text',
    access: { read: administratorsOnly, create: administratorsOnly, update: administratorsOnly },
    admin,
  }
}

/** The status given to the items an import creates; items it updates keep theirs. */
export function createdStatusField(description?: string): Field {
  return {
    name: 'createdStatus',
    label: 'Status of created items',
    type: 'select',
    required: true,
    defaultValue: 'publish',
    options: [
      { value: 'publish', label: 'Published' },
      { value: 'draft', label: 'Draft' },
    ],
    ...(description ? { admin: { description } } : {}),
  }
}

/** What a run did: its counts, its failed items with their reasons, and why it stopped when it did. */
export function outcomeFields(failures: string, error: string): Field[] {
  return [
    {
      type: 'row',
      fields: [
        countField('created', 'Created'),
        countField('updated', 'Updated'),
        countField('unchanged', 'Unchanged'),
        countField('trashed', 'Trashed'),
        countField('failed', 'Failed'),
      ],
    },
    {
      name: 'failures',
      type: 'array',
      admin: { readOnly: true, description: `${failures} (the first ${KEPT_FAILURES}).` },
      fields: [
        { name: 'item', type: 'text' },
        { name: 'reason', type: 'textarea' },
      ],
    },
    { name: 'error', type: 'textarea', admin: { readOnly: true, description: error } },
  ]
}
