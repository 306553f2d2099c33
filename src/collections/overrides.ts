import type { Access, CollectionConfig, Field, Where } from 'payload'
import { fieldAffectsData, tabHasName } from 'payload/shared'
import type { CollectionOverrides, CustomField } from '../options'

type Operation = 'read' | 'create' | 'update' | 'delete'
const OPERATIONS: Operation[] = ['read', 'create', 'update', 'delete']

/** Both rules must allow: `false` wins, two constraints are joined with `and`. */
function both(calendar: Access | undefined, developer: Access): Access {
  if (!calendar) return developer
  return async (args) => {
    const [a, b] = await Promise.all([calendar(args), developer(args)])
    if (!a || !b) return false
    if (a === true) return b
    if (b === true) return a
    return { and: [a as Where, b as Where] }
  }
}

const DEVELOPERS_RULE = Symbol('developer’s rule')

/**
 * The read rule a developer gave a calendar collection, without the calendar's: what alone decides
 * whether a caller may know of an item at all (docs/api.md §9), where the calendar's own rule still
 * answers a draft or a trashed item with upstream's 403.
 */
export function developersReadRule(access: CollectionConfig['access']): Access | undefined {
  return (access?.read as { [DEVELOPERS_RULE]?: Access } | undefined)?.[DEVELOPERS_RULE]
}

function mergedAccess(
  calendar: CollectionConfig['access'] = {},
  overrides: CollectionOverrides,
): CollectionConfig['access'] {
  const access = { ...calendar }
  for (const operation of OPERATIONS) {
    const developer = overrides.access?.[operation] as Access | undefined
    if (!developer) continue
    const merged: Access = overrides.replaceAccess
      ? (args) => developer(args)
      : both(calendar[operation] as Access | undefined, developer)
    access[operation] = Object.assign(merged, { [DEVELOPERS_RULE]: developer })
  }
  return access
}

function mergedHooks(
  calendar: CollectionConfig['hooks'] = {},
  extra: CollectionConfig['hooks'] = {},
): CollectionConfig['hooks'] {
  const hooks: Record<string, unknown[]> = { ...(calendar as Record<string, unknown[]>) }
  for (const [kind, list] of Object.entries(extra as Record<string, unknown[]>))
    hooks[kind] = [...(hooks[kind] ?? []), ...(list ?? [])]
  return hooks as CollectionConfig['hooks']
}

/** A calendar collection shaped by a developer's overrides (see CollectionOverrides). */
export function withOverrides(
  collection: CollectionConfig,
  overrides: CollectionOverrides | undefined,
): CollectionConfig {
  if (!overrides) return collection
  const fields =
    typeof overrides.fields === 'function'
      ? overrides.fields(collection.fields)
      : [...collection.fields, ...(overrides.fields ?? [])]
  return {
    ...collection,
    fields,
    hooks: mergedHooks(collection.hooks, overrides.hooks),
    access: mergedAccess(collection.access, overrides),
    admin: { ...collection.admin, ...overrides.admin },
  }
}

/** A field whose value sits at a document's top level; a named tab is one, an object like a group's. */
type TopLevelField = {
  name: string
  type: string
  label?: unknown
  options?: unknown
  hasMany?: unknown
  fields?: Field[]
  blocks?: unknown
  hidden?: unknown
  virtual?: unknown
  relationTo?: unknown
}

/**
 * The fields whose values sit at a document's top level: named fields (a named group or tab as one
 * object), and the named fields inside rows, collapsibles, unnamed groups and unnamed tabs, which only
 * arrange the admin's form. UI fields hold no value.
 */
function topLevelFields(fields: Field[]): TopLevelField[] {
  return fields.flatMap((field): TopLevelField[] => {
    if (fieldAffectsData(field)) return [field]
    if (field.type === 'tabs')
      return field.tabs.flatMap((tab) =>
        tabHasName(tab) ? [{ ...tab, type: 'tab' }] : topLevelFields(tab.fields),
      )
    if ('fields' in field && Array.isArray(field.fields)) return topLevelFields(field.fields)
    return []
  })
}

function labelOf(field: TopLevelField): string {
  const { label } = field
  if (typeof label === 'string') return label
  if (label && typeof label === 'object')
    return String((label as Record<string, string>).en ?? Object.values(label)[0] ?? field.name)
  return field.name
}

/** The top-level fields of `fields` that `defaults` lacks: what a developer added. */
export function addedFields(defaults: Field[], fields: Field[]): CustomField[] {
  const names = new Set(topLevelFields(defaults).map((field) => field.name))
  return servedFields(fields)
    .filter((field) => !names.has(field.name))
    .map(described)
}

/** Payload keeps a `hidden` field out of its APIs: so does the namespace, in answers, writes and /doc. */
const servedFields = (fields: Field[]) =>
  topLevelFields(fields).filter((field) => field.hidden !== true)

/**
 * A field as the namespace exposes it; a named group's or tab's with the fields its object holds, an
 * array's with its rows' and a blocks field's with each block's.
 */
function described(field: TopLevelField): CustomField {
  return {
    name: field.name,
    label: labelOf(field),
    type: field.type,
    // A virtual field's value is made when read (its hook, or a path into a relation): none is stored.
    ...(field.virtual ? { readOnly: true } : {}),
    ...(Array.isArray(field.options)
      ? {
          options: (field.options as (string | { value: string })[]).map((option) =>
            typeof option === 'string' ? option : option.value,
          ),
        }
      : {}),
    // A link to one collection's items is their ids (a form sends them as text); one to several
    // collections' (`{ relationTo, value }`) is Payload's to read.
    ...(['relationship', 'upload'].includes(field.type) && typeof field.relationTo === 'string'
      ? { linksTo: field.hasMany === true ? ('many' as const) : ('one' as const) }
      : {}),
    // Payload keeps a list of values for these.
    ...(field.hasMany === true && ['text', 'number', 'select'].includes(field.type)
      ? { hasMany: true }
      : {}),
    ...(['group', 'tab', 'array'].includes(field.type) && Array.isArray(field.fields)
      ? { fields: servedFields(field.fields).map(described) }
      : {}),
    // Blocks given by reference to the config's own (`blockReferences`) are left to Payload to read.
    ...(field.type === 'blocks' && Array.isArray(field.blocks)
      ? {
          blocks: (field.blocks as { slug: string; fields: Field[] }[]).map((block) => ({
            slug: block.slug,
            fields: servedFields(block.fields).map(described),
          })),
        }
      : {}),
  }
}
