import type { TextField } from 'payload'
import { parseZone } from '../../calendar/dates/zone'

/**
 * An event's or the site's zone, stored as `parseZone` spells it (`america/new_york` as
 * `America/New_York`, `utc+02:00` as `UTC+2`) through every door that writes it (the namespace and
 * the imports already send it so, Payload's REST and GraphQL and the admin as typed), so that what
 * names the zone to others (the iCalendar writer's TZID, the answers' `timezone`) finds it.
 */
export function timezoneField(refusal: string, admin: TextField['admin']): TextField {
  return {
    name: 'timezone',
    type: 'text',
    admin,
    hooks: {
      beforeValidate: [
        ({ value }) => (typeof value === 'string' ? (parseZone(value) ?? value) : value),
      ],
    },
    validate: (value: string | null | undefined) => !value || parseZone(value) !== null || refusal,
  }
}
