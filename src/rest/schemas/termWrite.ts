import { z } from 'zod'
import { nonEmptyString, positiveIntParam } from '../http/coerce'
import { idParam, languageParam } from './common'
import { textField } from './write'

const termFields = {
  i18n_language: languageParam,
  name: nonEmptyString().describe('Name in the request language; unique in its taxonomy.'),
  description: textField.optional().describe('Description in the request language.'),
  slug: nonEmptyString()
    .optional()
    .describe('Slug in the request language; generated from the name when absent.'),
}

const parentField = z
  .union([z.literal(0), z.literal('0'), positiveIntParam()])
  .transform(Number)
  .optional()
  .describe('Parent category id; 0 for none.')
/** Tags are flat: any `parent` is refused rather than ignored (docs/api.md §6.1). */
const noParent = z
  .unknown()
  .refine(() => false, { error: 'Tags have no parent.' })
  .optional()

// Loose, as the venues' and organizers' bodies: the keys they do not name may be a developer's fields
// (`schemas/customFields.ts` reads those).
export const categoryCreateBody = z.looseObject({ ...termFields, parent: parentField })
export const tagCreateBody = z.looseObject({ ...termFields, parent: noParent })
export const categoryUpdateBody = z.looseObject({
  ...termFields,
  name: termFields.name.optional(),
  id: idParam,
  parent: parentField,
})
export const tagUpdateBody = z.looseObject({
  ...termFields,
  name: termFields.name.optional(),
  id: idParam,
  parent: noParent,
})
export const termDeleteParams = z.object({ i18n_language: languageParam, id: idParam })
