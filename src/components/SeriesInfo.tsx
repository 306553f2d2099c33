'use client'
import { useDocumentInfo, useLocale, useTranslation } from '@payloadcms/ui'
import type { UIFieldClientComponent } from 'payload'
import { useEffect, useState } from 'react'
import { idOf } from '../calendar/relationId'
import { useAdminApi } from './adminApi'
import { styles } from './recurrenceStyles'
import { useWallClockFormat } from './wallClockFormat'

type EventRow = {
  id: number
  title?: string
  startLocal?: string
  status?: string
  recurrenceException?: boolean
}
type Stored = EventRow & { parent?: unknown; recurrence?: string | null; updatedAt?: string }
type Page = { docs: EventRow[]; totalDocs: number }

/** How many occurrences the sidebar lists; the events list, filtered on the series, has them all. */
const LISTED = 50

type Series =
  | { kind: 'none' }
  | { kind: 'parent'; occurrences: Page }
  | { kind: 'occurrence'; parent: EventRow | undefined; exception: boolean; parentId: number }

const WALL_CLOCK_FORMAT: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
}

/**
 * The event's place in a series, in the sidebar (docs/api.md §16): a first event lists its later
 * occurrences with links, marking exceptions; an occurrence links to its first event and says
 * whether it is an exception. Read as saved, again after each save.
 */
export const SeriesInfo: UIFieldClientComponent = () => {
  const { id, savedDocumentData } = useDocumentInfo()
  const { code: locale } = useLocale()
  const { i18n } = useTranslation()
  const { get, admin } = useAdminApi()
  const wallClock = useWallClockFormat(i18n.language, WALL_CLOCK_FORMAT).format
  const [series, setSeries] = useState<Series>({ kind: 'none' })
  // The form's saved document already holds the series fields: the panel asks only for the rest.
  const event = savedDocumentData as Stored | undefined
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

  const link = (eventId: number) => `${admin}/collections/events/${eventId}`
  if (series.kind === 'none') return null

  if (series.kind === 'occurrence') {
    return (
      <div
        id="series-info"
        className="field-type"
        style={{ ...styles.box, marginBottom: 'var(--spacing-field)' }}
      >
        <span className="field-label">Series</span>
        <p style={{ margin: 0 }}>
          Occurrence of the series of{' '}
          <a id="series-parent" href={link(series.parentId)}>
            {series.parent?.title || `event ${series.parentId}`}
          </a>
          {series.parent?.startLocal ? ` (first: ${wallClock(series.parent.startLocal)})` : ''}.
        </p>
        <p id="series-exception" style={styles.note}>
          {series.exception
            ? 'Exception: edited on its own, so changes to the series leave it as it is.'
            : 'Follows its series: changes to the first event are copied here. Saving this event makes it an exception.'}
        </p>
      </div>
    )
  }

  const { docs, totalDocs } = series.occurrences
  return (
    <div
      id="series-info"
      className="field-type"
      style={{ ...styles.box, marginBottom: 'var(--spacing-field)' }}
    >
      <span className="field-label">Series</span>
      <p id="series-count" style={{ margin: 0 }}>
        {totalDocs === 0
          ? 'No later occurrences.'
          : `${totalDocs} later occurrence${totalDocs === 1 ? '' : 's'}:`}
      </p>
      {docs.length > 0 && (
        <ul id="series-occurrences" style={styles.list}>
          {docs.map((occurrence) => (
            <li key={occurrence.id} style={styles.row} data-occurrence={occurrence.id}>
              <a href={link(occurrence.id)}>{wallClock(occurrence.startLocal)}</a>
              {occurrence.recurrenceException && (
                <span
                  style={styles.badge}
                  title="Edited on its own: changes to the series leave it as it is"
                >
                  exception
                </span>
              )}
              {occurrence.status === 'trash' && <span style={styles.badge}>in the trash</span>}
            </li>
          ))}
        </ul>
      )}
      {totalDocs > docs.length && (
        <a
          href={`${admin}/collections/events?${new URLSearchParams({ 'where[parent][equals]': String(id) })}`}
        >
          All {totalDocs} in the events list
        </a>
      )}
    </div>
  )
}
