'use client'
import { useDocumentInfo, useLocale, useTranslation } from '@payloadcms/ui'
import type { UIFieldClientComponent } from 'payload'
import type { ReactNode } from 'react'
import { useAdminApi } from './adminApi'
import { styles } from './recurrenceStyles'
import { useSeries, type Series, type Stored } from './seriesRead'
import { useWallClockFormat } from './wallClockFormat'

const WALL_CLOCK_FORMAT: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
}

type Shown<Kind extends Series['kind']> = {
  series: Extract<Series, { kind: Kind }>
  link: (eventId: number) => string
  wallClock: (wall: string | undefined) => string
}

function SeriesBox({ children }: { children: ReactNode }) {
  return (
    <div
      id="series-info"
      className="field-type"
      style={{ ...styles.box, marginBottom: 'var(--spacing-field)' }}
    >
      <span className="field-label">Series</span>
      {children}
    </div>
  )
}

/** An occurrence: its first event, and whether it follows the series or is an exception. */
function OccurrenceOf({ series, link, wallClock }: Shown<'occurrence'>) {
  return (
    <SeriesBox>
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
    </SeriesBox>
  )
}

/** A first event: its later occurrences, the first ones listed, and a link to them all. */
function LaterOccurrences({ series, link, wallClock, all }: Shown<'parent'> & { all: string }) {
  const { docs, totalDocs } = series.occurrences
  return (
    <SeriesBox>
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
      {totalDocs > docs.length && <a href={all}>All {totalDocs} in the events list</a>}
    </SeriesBox>
  )
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
  const { admin } = useAdminApi()
  const wallClock = useWallClockFormat(i18n.language, WALL_CLOCK_FORMAT).format
  const series = useSeries(id, savedDocumentData as Stored | undefined, locale)

  const link = (eventId: number) => `${admin}/collections/events/${eventId}`
  if (series.kind === 'none') return null
  if (series.kind === 'occurrence')
    return <OccurrenceOf series={series} link={link} wallClock={wallClock} />
  return (
    <LaterOccurrences
      series={series}
      link={link}
      wallClock={wallClock}
      all={`${admin}/collections/events?${new URLSearchParams({ 'where[parent][equals]': String(id) })}`}
    />
  )
}
