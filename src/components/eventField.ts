import { useField, useFormFields } from '@payloadcms/ui'
import { useSiteZone } from './adminApi'

/**
 * A field of the event's form whose value is read on the event's clock: the field's state, whether the
 * editor may change it, and the zone (the event's own, else the site's; undefined while the site's
 * is being read).
 */
export function useEventField(pathFromProps: string | undefined, readOnly: boolean | undefined) {
  const { disabled, ...state } = useField<string>({ potentiallyStalePath: pathFromProps })
  const eventZone = useFormFields(([fields]) => fields.timezone?.value) as string | undefined
  const siteZone = useSiteZone()
  return { ...state, locked: Boolean(readOnly || disabled), zone: eventZone || siteZone }
}
