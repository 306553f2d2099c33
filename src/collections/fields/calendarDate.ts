import { validations, type DateFieldValidation } from 'payload'
import { inCalendar } from '../../calendar/dates/resolve'

/**
 * Payload's own check of a date field, then the calendar's years (docs/api.md §6.2): a date outside
 * 0001-01-03 – 9999-12-29 UTC is refused through every door that saves the field (the namespace
 * refuses it first, naming its parameter; Payload's REST and GraphQL, the admin, imports), since
 * PostgreSQL and a list's window know no other.
 */
export const validateCalendarDate: DateFieldValidation = (value, options) => {
  const checked = validations.date(value, options)
  if (checked !== true || !value) return checked
  return (
    inCalendar(new Date(value).getTime()) ||
    'Dates must fall between 0001-01-03 and 9999-12-29 (UTC).'
  )
}
