import {
  ValidationError,
  type CollectionBeforeOperationHook,
  type Field,
  type FieldHook,
  type Payload,
} from 'payload'
import { fieldAffectsData, tabHasName } from 'payload/shared'

/**
 * Payload's REST and GraphQL hand a write's values to the fields' hooks and validators as the client
 * sent them, and those assume their field's type: a number as a website (`s.trim is not a
 * function`), an object as a user's email, `null` for the SEO group or rich text whose `children` is
 * text answered 500, and a string or any object was stored as an event's rich text, which the admin's
 * editor cannot open. Every field of every collection and global, Payload's own (an account's email,
 * the timestamps) and a developer's included, therefore checks first that its value is of its type,
 * and a value that is not is the request's mistake: Payload's 400 `ValidationError` naming the field,
 * before any other hook runs and before anything is written (docs/api.md §11).
 */

type Checked = Field & { name: string; hooks?: { beforeValidate?: FieldHook[] } }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Deeper than any document an editor writes; a bound keeps a crafted one from exhausting the stack. */
export const MAX_RICH_TEXT_DEPTH = 64

/** Whether `node` is a Lexical node: an object with a `type`, its `children` (if any) nodes too. */
function isLexicalNode(node: unknown, depth: number): boolean {
  if (!isObject(node) || typeof node.type !== 'string' || depth > MAX_RICH_TEXT_DEPTH) return false
  if (node.text !== undefined && typeof node.text !== 'string') return false
  if (node.children === undefined) return true
  return (
    Array.isArray(node.children) && node.children.every((child) => isLexicalNode(child, depth + 1))
  )
}

/** Whether a link's value can name an item: an id, or an item or `{ relationTo, value }` (Payload reads both). */
const isLink = (value: unknown) =>
  typeof value === 'number' || typeof value === 'string' || isObject(value)

/** What is wrong with `value` for `field`, or undefined when it is of the field's type. */
function mistyped(field: Checked, value: unknown): string | undefined {
  if (value === undefined) return undefined
  const many = 'hasMany' in field && field.hasMany === true
  if (many && (field.type === 'text' || field.type === 'number' || field.type === 'select')) {
    if (value === null) return undefined
    if (!Array.isArray(value)) return 'This field takes a list.'
    for (const item of value) {
      const wrong = mistyped({ ...field, hasMany: false } as Checked, item)
      if (wrong) return wrong
    }
    return undefined
  }
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'code':
    case 'select':
    case 'radio':
      return value === null || typeof value === 'string' ? undefined : 'This field takes text.'
    case 'number':
      // Payload reads text sent for a number with `parseFloat`: `north` arrives as NaN.
      return value === null || Number.isFinite(value) ? undefined : 'This field takes a number.'
    case 'checkbox':
      return value === null || typeof value === 'boolean'
        ? undefined
        : 'This field takes true or false.'
    case 'date':
      return value === null || typeof value === 'string' || value instanceof Date
        ? undefined
        : 'This field takes a date.'
    case 'point':
      return value === null || (Array.isArray(value) && value.length === 2)
        ? undefined
        : 'This field takes a point: [longitude, latitude].'
    case 'richText':
      return value === null ||
        (isObject(value) &&
          isObject(value.root) &&
          value.root.type === 'root' &&
          isLexicalNode(value.root, 0))
        ? undefined
        : 'This field takes rich text: a Lexical document ({"root": {"type": "root", "children": […]}}).'
    case 'relationship':
    case 'upload':
      if (value === null) return undefined
      if (many)
        return Array.isArray(value) && value.every(isLink)
          ? undefined
          : 'This field takes a list of links.'
      return isLink(value) ? undefined : 'This field takes a link: an id.'
    case 'group':
      return isObject(value) ? undefined : 'This field takes an object.'
    // Not null: the adapter writes an array's rows from the list (`[]` empties it).
    case 'array':
      return Array.isArray(value) && value.every(isObject)
        ? undefined
        : 'This field takes a list of objects.'
    case 'blocks':
      return Array.isArray(value) &&
        value.every((block) => isObject(block) && typeof block.blockType === 'string')
        ? undefined
        : 'This field takes a list of blocks, each with its blockType.'
    default:
      return undefined
  }
}

/** The check one field runs before its own hooks. */
function checkType(field: Checked): FieldHook {
  return ({ siblingData, path, req, collection, global }) => {
    // The value sent, not the default Payload offers in its place; returning nothing keeps it as is
    // (a value returned would replace it, and would write the default over a stored value).
    const value = (siblingData as Record<string, unknown> | undefined)?.[field.name]
    // With `locale=all`, a localized field's value is one value per language.
    const values =
      req.locale === 'all' && 'localized' in field && field.localized && isObject(value)
        ? Object.values(value)
        : [value]
    for (const each of values) {
      const message = mistyped(field, each)
      if (message)
        throw new ValidationError(
          {
            collection: collection?.slug,
            global: global?.slug,
            errors: [{ message, path: path.join('.') }],
            req,
          },
          req.t,
        )
    }
    return undefined
  }
}

type Hooked = { hooks?: { beforeValidate?: FieldHook[] } }

/** Fields already checked: a field object two collections share, or a second init, gets one check. */
const guarded = new WeakSet<Hooked>()

/** Puts the check of `field`'s value first among the hooks of `holder` (the field, or a named tab). */
function guard(holder: Hooked, field: Checked): void {
  if (guarded.has(holder)) return
  guarded.add(holder)
  holder.hooks ??= {}
  holder.hooks.beforeValidate = [checkType(field), ...(holder.hooks.beforeValidate ?? [])]
}

/** Puts the check first among the hooks of every field in `fields` that holds data, at any depth. */
function guardFields(fields: Field[]): void {
  for (const field of fields) {
    if ('fields' in field && Array.isArray(field.fields)) guardFields(field.fields)
    if (field.type === 'tabs')
      for (const tab of field.tabs) {
        guardFields(tab.fields)
        // A named tab holds its fields' values in an object of its own, as a group does.
        if (tabHasName(tab)) guard(tab, { ...tab, type: 'group' } as Checked)
      }
    if (field.type === 'blocks')
      for (const block of field.blocks) if (typeof block !== 'string') guardFields(block.fields)
    // A join's value is read from other documents, never written.
    if (fieldAffectsData(field) && field.type !== 'join') guard(field as Checked, field as Checked)
  }
}

/**
 * An account's password is no field: Payload reads it from the write itself, skips one that is not
 * text on an update (200, nothing changed) and hands one to its hashing on a create or a reset (a
 * 500). It is checked as a text field is, before the operation starts.
 */
const checkPassword: CollectionBeforeOperationHook = ({ args, collection, operation, req }) => {
  if (operation !== 'create' && operation !== 'update' && operation !== 'resetPassword') return args
  const password = (args as { data?: { password?: unknown } }).data?.password
  if (password === undefined || password === null || typeof password === 'string') return args
  throw new ValidationError(
    {
      collection: collection.slug,
      errors: [{ message: 'This field takes text.', path: 'password' }],
      req,
    },
    req.t,
  )
}

/**
 * Installs the checks on the sanitized config, once Payload has added its own fields (an account's
 * email, the timestamps), which a plugin's config does not see yet.
 */
export function guardFieldTypes(payload: Payload): void {
  for (const { config } of Object.values(payload.collections)) {
    guardFields(config.fields)
    if (config.auth && !config.hooks.beforeOperation?.includes(checkPassword))
      config.hooks.beforeOperation = [checkPassword, ...(config.hooks.beforeOperation ?? [])]
  }
  for (const global of payload.config.globals) guardFields(global.fields)
}
