import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import { renderDescriptionHtml } from '../collections/fields/descriptionHtml'
import type { StoredItem } from './localItems'

type Data = Record<string, unknown>

/** Whether writing `data` would change the stored item (empty text and no value are the same). */
export function changes(data: Data, stored: StoredItem): boolean {
  return Object.entries(data).some(([field, value]) => {
    if (field === 'description')
      return (
        renderDescriptionHtml(value as SerializedEditorState | null) !==
        ((stored.descriptionHtml as string | null) ?? '')
      )
    if (field === 'start' || field === 'end' || field === 'publishedAt')
      return !sameInstant(value, stored[field])
    return !same(value, stored[field])
  })
}

function sameInstant(value: unknown, stored: unknown): boolean {
  if (!value || !stored) return !value && !stored
  return new Date(value as string).getTime() === new Date(stored as string).getTime()
}

function same(value: unknown, stored: unknown): boolean {
  if (typeof value === 'boolean') return value === Boolean(stored)
  if (Array.isArray(value)) {
    const list = Array.isArray(stored) ? stored : []
    return value.length === list.length && value.every((entry, i) => same(entry, list[i]))
  }
  if (stored && typeof stored === 'object' && 'id' in stored) return same(value, stored.id)
  const empty = (entry: unknown) => entry === null || entry === undefined || entry === ''
  if (empty(value) || empty(stored)) return empty(value) && empty(stored)
  return String(value) === String(stored)
}
