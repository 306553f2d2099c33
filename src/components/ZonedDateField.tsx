'use client'
import { FieldDescription, FieldError, FieldLabel, useFormFields } from '@payloadcms/ui'
import type { DateFieldClientComponent } from 'payload'
import { useEffect, useRef } from 'react'
import { instantOfInput, wallClockInput } from '../calendar/dates/wallClock'
import { useEventField } from './eventField'
import { styles } from './recurrenceStyles'

/**
 * An event's start or end as the wall clock of the event's own zone (docs/api.md §21), whatever the
 * browser's zone: an editor in New York types 19:00 for a concert in Paris. The field's value stays
 * the UTC instant Payload stores. When the zone changes, the wall clock stays and the instant moves,
 * as when a venue's zone is corrected. All-day events take a date only.
 */
export const ZonedDateField: DateFieldClientComponent = ({
  field,
  path: pathFromProps,
  readOnly,
}) => {
  // The zone is undefined while the site's is being read: nothing is shown or moved before it is known.
  const { path, value, setValue, showError, locked, zone } = useEventField(pathFromProps, readOnly)
  const allDay = Boolean(useFormFields(([fields]) => fields.allDay?.value))
  const disabled = locked || !zone
  const wall = value && zone ? wallClockInput(new Date(value), zone) : ''

  // The wall clock under the zone in force before a change of zone, kept as typed.
  const before = useRef<{ zone?: string; wall: string }>({ zone, wall })
  useEffect(() => {
    if (!zone) return
    const previous = before.current
    before.current = { zone, wall: previous.zone === zone ? wall : previous.wall }
    if (!previous.zone || previous.zone === zone || !previous.wall) return
    const moved = instantOfInput(previous.wall, zone)
    if (moved && moved.toISOString() !== value) setValue(moved.toISOString())
  }, [zone, wall, value, setValue])

  const onChange = (input: string) => {
    if (!zone) return
    // A date alone keeps the time it had: all-day events are snapped to their days when saved.
    const typed = allDay && wall ? `${input}T${wall.slice(11)}` : input
    const instant = instantOfInput(typed, zone)
    setValue(instant ? instant.toISOString() : null)
  }

  const label = typeof field.label === 'string' ? field.label : field.name
  return (
    <div className="field-type" id={`field-${path}`} style={{ ...styles.box, flex: 1 }}>
      <FieldLabel label={label} path={path} required={field.required} />
      <FieldError path={path} showError={showError} />
      <input
        id={`field-${path}-input`}
        name={path}
        type={allDay ? 'date' : 'datetime-local'}
        style={styles.input}
        value={allDay ? wall.slice(0, 10) : wall}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
      <p style={styles.note} data-zone={zone}>
        {zone ? (allDay ? `All day in ${zone}` : `In ${zone}`) : ''}
        {value && !allDay && zone !== 'UTC'
          ? ` · ${new Date(value).toISOString().slice(11, 16)} UTC`
          : ''}
      </p>
      <FieldDescription path={path} description={field.admin?.description} />
    </div>
  )
}
