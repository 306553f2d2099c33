import type { CollectionConfig, Field, SanitizedConfig } from 'payload'
import type { AuthoredResource, TermResource } from './calendar/resources'

/** The collections a developer can shape through the plugin's options. */
export type CalendarCollection =
  'events' | 'venues' | 'organizers' | 'event-categories' | 'event-tags'

export type CollectionOverrides = {
  /** Extra fields, appended to the calendar's; or a function from the calendar's fields to the final list. */
  fields?: Field[] | ((defaults: Field[]) => Field[])
  /** Hooks run after the calendar's own hooks of the same kind. */
  hooks?: CollectionConfig['hooks']
  /**
   * Access rules combined with the calendar's: an operation is allowed only when both allow it, so
   * these can tighten the calendar's rules, never loosen them by accident.
   */
  access?: CollectionConfig['access']
  /** Loosening on purpose: use `access` instead of the calendar's rules for the operations it names. */
  replaceAccess?: boolean
  /** Admin settings merged over the calendar's (columns, group, description...). */
  admin?: CollectionConfig['admin']
}

export type PermalinkKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag'

export type CalendarPluginOptions = {
  /** Languages offered, as codes of the namespace (default: all 23; English is always the default). */
  languages?: string[]
  /** Where the namespace lives under Payload's REST root (default `cal/events/v1`: `/api/cal/events/v1`). */
  namespace?: string
  /** Per-collection extra fields, hooks, access rules and admin settings. */
  collections?: Partial<Record<CalendarCollection, CollectionOverrides>>
  /** Add the `settings` global (default true); without it the defaults of the README apply. */
  settingsGlobal?: boolean
  /** Permalink patterns under the site URL, `{slug}` replaced (defaults as upstream: `/event/{slug}/`...). */
  permalinks?: Partial<Record<PermalinkKind, string>>
  /** Whether this server polls the calendar's jobs queue (default true); runs on several instances never overlap. */
  runJobs?: boolean
  /**
   * Whether the app serves public pages at the default permalinks, `/events/` and `/sitemap.xml`
   * (default true; docs/public-face.md). Off for a plugin inside a site with pages of its own: those paths 404.
   */
  publicPages?: boolean
}

export const DEFAULT_NAMESPACE = 'cal/events/v1'

export const DEFAULT_PERMALINKS: Record<PermalinkKind, string> = {
  event: '/event/{slug}/',
  venue: '/venue/{slug}/',
  organizer: '/organizer/{slug}/',
  category: '/events/category/{slug}/',
  tag: '/events/tag/{slug}/',
}

/** The namespace's resources whose collections a developer may add fields to (`collections` option). */
export type ExtensibleKind = AuthoredResource['key'] | TermResource['key']

/** A field a developer added, as the namespace exposes it; a named group, tab, array or blocks field lists its own. */
export type CustomField = {
  name: string
  label: string
  type: string
  options?: string[]
  /** A text, number or select field that holds a list of values. */
  hasMany?: boolean
  /** A virtual field: served in answers, neither written nor documented as a write's parameter. */
  readOnly?: boolean
  /** A relationship or upload to one collection: the id of one item, or a list of ids. */
  linksTo?: 'one' | 'many'
  /** A named group's or tab's fields, or each row's of an array. */
  fields?: CustomField[]
  /** A blocks field's blocks: each row names its block in `blockType` and holds that block's fields. */
  blocks?: { slug: string; fields: CustomField[] }[]
}

/** What the namespace needs to know at request time, kept in the config's `custom` slot. */
export type CalendarRuntime = {
  namespace: string
  permalinks: Record<PermalinkKind, string>
  settingsGlobal: boolean
  publicPages: boolean
  customFields: Record<ExtensibleKind, CustomField[]>
}

export function calendarRuntime(config: SanitizedConfig): CalendarRuntime {
  const runtime = (config.custom as { calendar?: CalendarRuntime } | undefined)?.calendar
  if (!runtime) throw new Error('calendarPlugin() is not installed in this Payload config')
  return runtime
}
