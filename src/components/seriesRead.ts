import { useEffect, useState } from 'react'
import { idOf } from '../calendar/relationId'
import { useAdminApi } from './adminApi'

export type EventRow = {
  id: number
  title?: string
  startLocal?: string
  status?: string
  recurrenceException?: boolean
}
export type Stored = EventRow & { parent?: unknown; recurrence?: string | null; updatedAt?: string }
type Page = { docs: EventRow[]; totalDocs: number }

/** How many occurrences the sidebar lists; the events list, filtered on the series, has them all. */
const LISTED = 50

export type Series =
  | { kind: 'none' }
  | { kind: 'parent'; occurrences: Page }
  | { kind: 'occurrence'; parent: EventRow | undefined; exception: boolean; parentId: number }

/**
 * The event's place in its series as saved, read again whenever it is saved: a first event's later
 * occurrences, or an occurrence's first event. The form's saved document already holds the series
 * fields, so only the rest is asked for.
 */
export function useSeries(
  id: number | string | undefined,
  event: Stored | undefined,
  locale: string,
): Series {
  const { get } = useAdminApi()
  const [series, setSeries] = useState<Series>({ kind: 'none' })
  const savedAt = event?.updatedAt

  useEffect(() => {
    if (id === undefined || !event) return
    let current = true
    const read = async (): Promise<Series> => {
      const parentId = idOf(event.parent)
      if (event.recurrence?.trim()) {
        const occurrences = await get<Page>('/events', {
          depth: 0,
          locale,
          limit: LISTED,
          sort: 'startLocal',
          'where[parent][equals]': String(id),
          'select[title]': 'true',
          'select[startLocal]': 'true',
          'select[status]': 'true',
          'select[recurrenceException]': 'true',
        })
        return { kind: 'parent', occurrences: occurrences ?? { docs: [], totalDocs: 0 } }
      }
      if (parentId === undefined) return { kind: 'none' }
      const parent = await get<EventRow>(`/events/${parentId}`, {
        depth: 0,
        locale,
        'select[title]': 'true',
        'select[startLocal]': 'true',
      })
      return {
        kind: 'occurrence',
        parent,
        parentId,
        exception: Boolean(event.recurrenceException),
      }
    }
    read()
      .then((found) => current && setSeries(found))
      .catch(() => current && setSeries({ kind: 'none' }))
    return () => {
      current = false
    }
    // Read again when the document is saved: the series changes with its first event.
  }, [id, savedAt, locale])

  return series
}
