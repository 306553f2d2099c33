'use client'
import { useTranslation } from '@payloadcms/ui'
import type { DefaultCellComponentProps } from 'payload'

type Row = { startLocal?: string; endLocal?: string; timezone?: string; allDay?: boolean }

/**
 * An event's start or end in the events list as its own wall clock and zone (`Jun 12, 2031, 7:00 PM ·
 * Europe/Paris`), not the editor's: the list then reads as the event's page does.
 */
export function EventTimeCell({ field, rowData }: DefaultCellComponentProps) {
  const { i18n } = useTranslation()
  const row = rowData as Row
  const wall = 'name' in field && field.name === 'end' ? row.endLocal : row.startLocal
  if (!wall) return null
  const options: Intl.DateTimeFormatOptions = row.allDay
    ? { timeZone: 'UTC', dateStyle: 'medium' }
    : { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }
  let text: string
  try {
    text = new Intl.DateTimeFormat(i18n.language, options).format(
      new Date(`${wall.replace(' ', 'T')}Z`),
    )
  } catch {
    text = wall
  }
  return (
    <span className="event-time-cell">
      {text}
      {row.timezone ? ` · ${row.timezone}` : ''}
    </span>
  )
}
