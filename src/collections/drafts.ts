import { sql } from '@payloadcms/db-postgres'
import type {
  CollectionBeforeChangeHook,
  CollectionBeforeOperationHook,
  CollectionSlug,
} from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf, editableWhere } from '../calendar/access/collectionAccess'
import { requestQuery } from '../database/rawQuery'
import { isStoredId } from '../database/unreadableValues'
import { tableNameOf } from '../database/seriesCopy'

/**
 * Payload's drafts, used for autosave only (docs/api.md §21). The item's own row holds its saved
 * state, which every door serves; `status` is its one publication state. An autosave (a save with
 * `draft`) writes a version and leaves that row alone, so Payload's `_status` only says whether a
 * version holds edits newer than the saved state: `published` on every saved row, `draft` on autosaves.
 */
export const AUTOSAVE_INTERVAL_MS = 2000

/**
 * Whether a write only autosaved the item: its row, and so what any door serves, did not change.
 * Hooks with effects beyond the version (series upkeep, queued publication) skip such writes.
 */
export function savesDraftOnly(doc: { _status?: unknown } | undefined): boolean {
  return doc?._status === 'draft'
}

/**
 * A restore names no draft in its data (it is the restored version's), so its operation says
 * whether it writes the row or, restoring "as draft", only a version.
 */
const RESTORES = 'calendarRestores'

/**
 * First of the collection's `beforeChange` hooks. A write of the row (any create, any save without
 * `draft`) is `published`: the row has the latest saved edits. An autosave keeps the item's saved
 * status: a change of status is never autosaved, it takes effect when saved, so no version shows a
 * publication state the item does not have.
 */
export const separateAutosaves: CollectionBeforeChangeHook = ({
  data,
  operation,
  originalDoc,
  req,
}) => {
  const restoring = req.context[RESTORES]
  const draftOnly =
    operation === 'update' &&
    (restoring === undefined ? savesDraftOnly(data) : restoring === 'draft')
  data._status = draftOnly ? 'draft' : 'published'
  if (draftOnly) data.status = originalDoc?.status
  return data
}

/**
 * What `draft` may ask, whichever door it comes through (the admin, Payload's REST and GraphQL):
 *
 * - a single read with `draft` returns the autosaved edits only to those who may edit the item;
 *   others read its saved state, as without `draft`;
 * - lists never read autosaves: they list saved states, as the namespace does (and the series'
 *   occurrences, which keep no versions of their own, stay listed);
 * - an update starts from the saved row, never from an autosave: Payload would otherwise start
 *   from the latest version, and a write through the namespace would save an editor's autosaved
 *   edits along with its own. The versions stop being "latest", so Payload reads the row; a save
 *   then supersedes the autosave, which stays in the history.
 */
export const guardDrafts: CollectionBeforeOperationHook = async ({
  args,
  operation,
  req,
  collection,
}) => {
  const call = { ...args } as {
    id?: number | string
    draft?: boolean
    data?: { _status?: unknown }
  }
  const answer = (changes: Partial<typeof call>) => ({ ...args, ...changes }) as typeof args
  if (operation === 'read' && call.draft) {
    const actor = actorOf(req.user)
    if (call.id === undefined) return answer({ draft: false })
    if (capabilities.editOthers(actor)) return args
    const editable = editableWhere(actor)
    const mayEdit =
      editable !== false &&
      (
        await req.payload.count({
          collection: collection.slug as CollectionSlug,
          where:
            editable === true
              ? { id: { equals: call.id } }
              : { and: [{ id: { equals: call.id } }, editable] },
          overrideAccess: true,
          req,
        })
      ).totalDocs > 0
    return mayEdit ? args : answer({ draft: false })
  }
  if (operation === 'restoreVersion') req.context[RESTORES] = call.draft ? 'draft' : 'row'
  if (operation === 'update') {
    // A write of the row says so in `_status`, whatever the caller sent: the hooks tell autosaves by it.
    const savesDraft = Boolean(call.draft) && call.data?._status !== 'published'
    const data =
      !savesDraft && call.data && '_status' in call.data
        ? { ...call.data, _status: 'published' }
        : call.data
    if (call.id === undefined) return savesDraft ? args : answer({ data, draft: false })
    const table = tableNameOf(req.payload, collection.slug, true)
    const id = Number(call.id)
    // An id that names no item is Payload's to refuse (its read finds nothing), not this statement's.
    if (isStoredId(id))
      await requestQuery(
        req,
        sql`update ${sql.identifier(table)} set latest = false where parent_id = ${id} and latest`,
      )
    return answer({ data })
  }
  return args
}

/**
 * Payload's words for drafts, as the editor meets them here: its "publish" saves the item's row
 * (`status` says whether it is published), and its "draft" is an autosave. Set for English, the
 * admin's language; they are the admin's words, so any collection of the app with drafts gets them.
 */
export const AUTOSAVE_WORDS = {
  en: {
    version: {
      publish: 'Save',
      publishChanges: 'Save',
      publishIn: 'Save in {{locale}}',
      status: 'Edits',
      published: 'Saved',
      draft: 'Autosaved',
      changed: 'Autosaved, not saved',
      lastSavedAgo: 'Autosaved {{distance}} ago',
      saveDraft: 'Save as autosave',
      restoreAsDraft: 'Restore as autosaved edits',
      revertToPublished: 'Discard autosaved edits',
      aboutToRevertToPublished:
        'You are about to discard the autosaved edits and go back to the saved item. Are you sure?',
      confirmRevertToSaved: 'Confirm discarding the autosaved edits',
      currentlyPublished: 'Currently saved',
      currentPublishedVersion: 'Current saved version',
      currentDraft: 'Current autosave',
      draftSavedSuccessfully: 'Autosaved.',
    },
  },
} as const
