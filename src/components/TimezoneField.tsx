'use client'
import { SelectInput, useDocumentInfo, useField } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import { useEffect, useMemo } from 'react'
import { floatingWallClock } from '../calendar/dates/wallClock'
import { useSiteZone } from './adminApi'

/** `UTC+05:30`: a zone's offset now, to tell zones apart in the list. */
function offsetLabel(zone: string, now: Date): string {
  const minutes = Math.round((floatingWallClock(now, zone).getTime() - now.getTime()) / 60_000)
  const sign = minutes < 0 ? '-' : '+'
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')
  return `UTC${sign}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`
}

/** The zones the browser's tz database knows, and UTC. */
function zoneIds(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: 'timeZone') => string[] }
  return ['UTC', ...(intl.supportedValuesOf?.('timeZone') ?? []).filter((zone) => zone !== 'UTC')]
}

/**
 * An event's zone (docs/api.md §21): a searchable list of IANA zones, each with its offset today; a
 * new event starts in the site's zone. An offset zone written through the API (`UTC+2`) stays
 * selectable as it is.
 */
export const TimezoneField: TextFieldClientComponent = ({
  field,
  path: pathFromProps,
  readOnly,
}) => {
  const { path, value, setValue, showError, disabled } = useField<string>({
    potentiallyStalePath: pathFromProps,
  })
  const { id } = useDocumentInfo()
  const siteZone = useSiteZone()
  const options = useMemo(() => {
    const now = new Date()
    const ids = zoneIds()
    if (value && !ids.includes(value)) ids.unshift(value)
    return ids.map((zone) => ({ value: zone, label: `${zone} (${offsetLabel(zone, now)})` }))
  }, [value])

  useEffect(() => {
    if (id === undefined && !value && siteZone) setValue(siteZone)
  }, [id, value, siteZone, setValue])

  return (
    <SelectInput
      path={path}
      name={path}
      label={field.label || 'Time zone'}
      description={field.admin?.description}
      options={options}
      value={value ?? ''}
      isClearable
      placeholder={siteZone ? `The site's zone (${siteZone})` : undefined}
      readOnly={Boolean(readOnly || disabled)}
      showError={showError}
      onChange={(option) => setValue(option && !Array.isArray(option) ? String(option.value) : '')}
    />
  )
}
