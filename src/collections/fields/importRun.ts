import type {
  CollectionAfterChangeHook,
  CollectionBeforeChangeHook,
  CollectionConfig,
  Field,
  SelectField,
  TextField,
  TypedJobs,
} from 'payload'
import { administratorAccess, administratorsOnly } from '../../calendar/access/collectionAccess'
import { queueJob, type Task } from '../queueJob'

/** Failed items a run keeps with their reasons; past that, only the count grows. */
export const KEPT_FAILURES = 1000

/** What a site or feed import reads: an http(s) URL, or webcal:// for a feed. */
export const isImportUrl = (value: string) => /^(https?|webcals?):\/\/\S+$/i.test(value.trim())

/** The administrator who saved a run or subscription authors what it creates. */
const recordCreator: CollectionBeforeChangeHook = ({ data, req, operation }) => {
  if (operation === 'create' && req.user) data.createdBy ??= req.user.id
  return data
}

/** A saved record, as an after-change hook sees it. */
export type RecordChange = Parameters<CollectionAfterChangeHook>[0]

/**
 * A collection of import records (runs, subscriptions), administrators only: the administrator who
 * saves one authors what it creates (its `createdBy`, in the sidebar after `config`'s fields), and a
 * save for which `due` gives the job's input puts the job on its queue, in the save's transaction.
 */
export function importRecords<T extends Task>(
  job: { task: T; queue: string },
  due: (change: RecordChange) => TypedJobs['tasks'][T]['input'] | null,
  config: Omit<CollectionConfig, 'access'>,
): CollectionConfig {
  const queueWhenDue: CollectionAfterChangeHook = async (change) => {
    const input = due(change)
    if (input) await queueJob(change.req, job, input)
    return change.doc
  }
  const noun = typeof config.labels?.singular === 'string' ? config.labels.singular : config.slug
  return {
    ...config,
    fields: [
      ...config.fields,
      createdByField(`The author of what the ${noun.toLowerCase()} creates.`),
    ],
    access: administratorAccess,
    hooks: {
      ...config.hooks,
      beforeChange: [...(config.hooks?.beforeChange ?? []), recordCreator],
      afterChange: [queueWhenDue],
    },
  }
}

/** Who authors what the records create: the administrator who saved it, unless set. */
const createdByField = (description: string): Field => ({
  name: 'createdBy',
  type: 'relationship',
  relationTo: 'users',
  admin: { readOnly: true, position: 'sidebar', description },
})

/** When a run started or ended, in the sidebar. */
export const runTimeField = (name: string): Field => ({
  name,
  type: 'date',
  admin: { readOnly: true, position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } },
})

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

/** Options whose labels are their values capitalized: `done` is Done. */
export const capitalizedOptions = (values: readonly string[]) =>
  values.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }))

/** A required choice among `options` (value: label), `defaultValue` until another is chosen. */
export const choiceField = (
  name: string,
  defaultValue: string,
  options: Record<string, string>,
): SelectField => ({
  name,
  type: 'select',
  required: true,
  defaultValue,
  options: Object.entries(options).map(([value, label]) => ({ value, label })),
})

/** The status given to the items an import creates; items it updates keep theirs. */
export function createdStatusField(description?: string): Field {
  return {
    ...choiceField('createdStatus', 'publish', { publish: 'Published', draft: 'Draft' }),
    label: 'Status of created items',
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
