import type { NumberFieldSingleValidation } from 'payload'
import { number } from 'payload/shared'

/**
 * Payload's own check of a number field (its `min`, `max`, `required`), and a whole number: the
 * settings' counts reach SQL as integers and page sizes, where 2.5 made every anonymous list a 500.
 */
export const validateWholeNumber: NumberFieldSingleValidation = (value, options) => {
  const checked = number(value, options)
  if (checked !== true) return checked
  return value === null || value === undefined || Number.isInteger(value)
    ? true
    : 'Must be a whole number.'
}
