import { sql } from '@payloadcms/db-postgres'
import type { CollectionConfig, CollectionSlug, Config, Endpoint } from 'payload'
import { isAdministrator } from './calendar/access/collectionAccess'
import { Events } from './collections/Events'
import { Imports } from './collections/Imports'
import { ImportSubscriptions } from './collections/ImportSubscriptions'
import { Media } from './collections/Media'
import { Organizers } from './collections/Organizers'
import { addedFields, withOverrides } from './collections/overrides'
import { EventCategories, EventTags } from './collections/terms'
import { AUTOSAVE_WORDS } from './collections/drafts'
import { guardFieldTypes } from './collections/fieldTypes'
import { refuseTrashedTargets } from './collections/fields/linkTargets'
import { guardLockedDocuments } from './collections/lockedDocuments'
import { guardAccountLinks } from './collections/accountLinks'
import { refuseDeepArguments } from './collections/deepArguments'
import { keepBulkWritesWhole } from './collections/wholeBulkWrites'
import { takeTurnsOnUpdates } from './collections/hooks/rowLocks'
import { rootFieldLimit } from './server/graphqlRootFields'
import { shapeJobEndpoints } from './collections/jobEndpoints'
import { answerMissingDeletes } from './database/missingDeletes'
import { LOGIN_THROTTLED } from './collections/hooks/loginThrottle'
import { Users } from './collections/Users'
import { Venues } from './collections/Venues'
import { DELIVER_JOB, WebhookDeliveries, Webhooks } from './collections/Webhooks'
import {
  databaseUnavailableAfterError,
  handleConnectionErrors,
  writeConflictAfterError,
} from './database/connectionErrors'
import { instrumentPool } from './database/queryCount'
import { rawQuery } from './database/rawQuery'
import { warnOnNarrowEncoding } from './database/encoding'
import { schemaPushed } from './database/schemaPush'
import { markLostSignIns } from './database/users/signIn'
import { refuseUnreadableValues, unreadableValueAfterError } from './database/unreadableValues'
import { rememberWriteConflicts } from './database/writeConflicts'
import { refuseLostCommits } from './database/commits'
import { HORIZON_JOB, Settings } from './globals/Settings'
import { localizationFor } from './i18n/localization'
import { CALENDAR_TASKS } from './jobs'
import { CALENDAR_SCHEMA } from './migrations/calendarSchema'
import {
  DEFAULT_NAMESPACE,
  DEFAULT_PERMALINKS,
  type CalendarPluginOptions,
  type CalendarRuntime,
} from './options'
import { keepErrorNames } from './server/errorNames'
import { offerJobsDrain } from './server/jobsDrain'
import { logMistakesAtTheirLevel } from './server/mistakeLogging'
import { malformedFormAfterError } from './server/payloadRestGuard'
import { healthEndpoint } from './server/health'
import { IDEMPOTENCY_HEADER } from './rest/idempotency'
import { namespaceEndpoints } from './rest/mount'
import { METHOD_OVERRIDE_HEADER } from './rest/pipeline'
import { referenceEndpoints } from './rest/reference'
import { deliverWebhooks } from './webhooks/deliver'
import { installMetricsSource } from './rest/metricsSource'
import { namespaceRegistry } from './rest/sharedAnswers'
import { CALENDAR_VIEW_PATH, EVENT_CALENDAR } from './components/calendarQuery'

export type { CalendarPluginOptions, CollectionOverrides } from './options'
/** Suggestions for `@payloadcms/plugin-seo` on events: `seoPlugin({ collections: ['events'], ...eventSeo })`. */
export { eventSeo } from './collections/seo'
/** The calendar's own schema as a migration, for an app that migrates (README, "Extending"). */
export { calendarSchema } from './migrations/calendarSchema'

/**
 * The admin's link to the API reference, named through the package (its `./rsc` export) as an
 * installing app's import map resolves it; this app maps the name to its source in tsconfig.json.
 */
const API_REFERENCE_LINK = 'cal-events/rsc#ApiReferenceLink'

/**
 * The admin's calendar (`/admin/calendar`): the view, its link in the navigation and above the
 * events list, named through the package like the link above. The view renders its client part
 * through the import map, so the map must hold it although no other config names it.
 */
const CALENDAR_VIEW = 'cal-events/rsc#CalendarView'
/** Hides Payload's draft controls that autosave makes meaningless on the calendar's collections. */
const AUTOSAVE_CONTROLS = 'cal-events/rsc#AutosaveControls'
const CALENDAR_NAV_LINK = 'cal-events/rsc#CalendarNavLink'
const CALENDAR_LIST_LINK = 'cal-events/rsc#CalendarListLink'

/** `POST /api/webhooks/deliver`: one delivery pass now, for administrators (after fixing a receiver, say). */
const deliverNow: Endpoint = {
  path: '/deliver',
  method: 'post',
  handler: async (req) => {
    if (!isAdministrator({ req } as never))
      return Response.json(
        { errors: [{ message: 'You are not allowed to perform this action.' }] },
        { status: 403 },
      )
    return Response.json(await deliverWebhooks(req))
  },
}

/** The events list's link to the calendar, before the table, after whatever the app put there. */
function withCalendarLink(events: CollectionConfig): CollectionConfig {
  const components = events.admin?.components
  return {
    ...events,
    admin: {
      ...events.admin,
      components: {
        ...components,
        beforeListTable: [...(components?.beforeListTable ?? []), CALENDAR_LIST_LINK],
      },
    },
  }
}

/** Lets browsers on other origins send the namespace's own request headers, whatever form the app's CORS setting has. */
function withRequestHeaders(cors: Config['cors'], headers: string[]): Config['cors'] {
  if (!cors) return cors
  if (cors === '*' || Array.isArray(cors)) return { origins: cors, headers }
  return { ...cors, headers: [...new Set([...(cors.headers ?? []), ...headers])] }
}

type Translations = NonNullable<NonNullable<Config['i18n']>['translations']>

/** The app's own translations, with the calendar's words for Payload's drafts under them (the app's win). */
function withWords(own: Translations | undefined, words: typeof AUTOSAVE_WORDS): Translations {
  const merged: Record<string, Record<string, Record<string, string>>> = {
    ...(own as Record<string, Record<string, Record<string, string>>>),
  }
  for (const [language, groups] of Object.entries(words)) {
    const mine = merged[language] ?? {}
    merged[language] = { ...mine, version: { ...groups.version, ...mine.version } }
  }
  return merged as Translations
}

/** The calendar's collections, shaped by the options' overrides, in the order they join the config. */
function calendarCollections(overrides: NonNullable<CalendarPluginOptions['collections']>) {
  const events = withCalendarLink(withOverrides(Events, overrides.events))
  const venues = withOverrides(Venues, overrides.venues)
  const organizers = withOverrides(Organizers, overrides.organizers)
  const categories = withOverrides(EventCategories, overrides['event-categories'])
  const tags = withOverrides(EventTags, overrides['event-tags'])
  const collections: CollectionConfig[] = [
    events,
    venues,
    organizers,
    categories,
    tags,
    Media,
    Users,
    { ...Webhooks, endpoints: [...(Webhooks.endpoints || []), deliverNow] },
    WebhookDeliveries,
    Imports,
    ImportSubscriptions,
  ]
  const customFields = {
    events: addedFields(Events.fields, events.fields),
    venues: addedFields(Venues.fields, venues.fields),
    organizers: addedFields(Organizers.fields, organizers.fields),
    categories: addedFields(EventCategories.fields, categories.fields),
    tags: addedFields(EventTags.fields, tags.fields),
  }
  return { collections, customFields }
}

/** The app's admin with the calendar's view, its links, the autosave controls and the user collection. */
function withAdmin(admin: Config['admin']): Config['admin'] {
  return {
    ...admin,
    user: admin?.user ?? Users.slug,
    components: {
      ...admin?.components,
      afterNavLinks: [
        ...(admin?.components?.afterNavLinks ?? []),
        CALENDAR_NAV_LINK,
        API_REFERENCE_LINK,
      ],
      header: [...(admin?.components?.header ?? []), AUTOSAVE_CONTROLS],
      views: {
        ...admin?.components?.views,
        eventCalendar: { Component: CALENDAR_VIEW, path: CALENDAR_VIEW_PATH, exact: true },
      },
    },
    dependencies: {
      ...admin?.dependencies,
      eventCalendar: { path: EVENT_CALENDAR, type: 'component' },
    },
  }
}

/** The app's jobs with the calendar's tasks and, unless the options turn it off, their schedule. */
function withJobs(jobs: Config['jobs'], options: CalendarPluginOptions): Config['jobs'] {
  return {
    ...jobs,
    tasks: [...(jobs?.tasks ?? []), ...CALENDAR_TASKS],
    access: {
      ...jobs?.access,
      run: jobs?.access?.run ?? ((args) => Boolean(isAdministrator(args as never))),
    },
    // The queue is polled by the server itself, which also queues the scheduled runs.
    autoRun: async (payload) => {
      const own = jobs?.autoRun
      const calendar =
        options.runJobs === false
          ? []
          : [
              // The runner's routine "Running N jobs" (every poll) would fill the log: only its errors are
              // logged, and the tasks log what an operator needs to know themselves.
              { cron: '* * * * *', queue: HORIZON_JOB.queue, silent: { info: true } },
              { cron: DELIVER_JOB.every, queue: DELIVER_JOB.queue, silent: { info: true } },
            ]
      return [...(typeof own === 'function' ? await own(payload) : (own ?? [])), ...calendar]
    },
  }
}

type Resolver = (...args: unknown[]) => Promise<Record<string, unknown>>

/**
 * The app's GraphQL, with a bound on an operation's root fields (`rootFieldLimit`), and Payload's
 * `Access` query answering `canAccessAdmin` to everyone: Payload leaves out a permission that is
 * false, and the field is a non-null Boolean, so an anonymous caller's or a subscriber's
 * `{ Access { canAccessAdmin } }` was a server error with its stack in the log. The app's own
 * queries and rules come first, and its queries win.
 */
function withGraphQL(graphQL: Config['graphQL']): Config['graphQL'] {
  const own = graphQL?.queries
  const ownRules = graphQL?.validationRules
  return {
    ...graphQL,
    validationRules: (args) => [...(ownRules?.(args) ?? []), rootFieldLimit],
    queries: (GraphQL, context) => {
      const access = context.Query.fields.Access as { resolve: Resolver } | undefined
      const fixed = access && {
        Access: {
          ...access,
          resolve: async (...args: unknown[]) => {
            const permissions = await access.resolve(...args)
            return { ...permissions, canAccessAdmin: permissions.canAccessAdmin ?? false }
          },
        },
      }
      return { ...fixed, ...own?.(GraphQL, context) }
    },
  }
}

/** The app's `onInit`, then what the calendar needs of a running Payload. */
function withInit(
  onInit: Config['onInit'],
  calendarSlugs: CollectionSlug[],
): NonNullable<Config['onInit']> {
  return async (payload) => {
    await onInit?.(payload)
    handleConnectionErrors(payload)
    markLostSignIns(payload)
    logMistakesAtTheirLevel(payload)
    refuseUnreadableValues(payload)
    rememberWriteConflicts(payload)
    refuseLostCommits(payload)
    refuseDeepArguments(payload)
    answerMissingDeletes(payload)
    guardFieldTypes(payload)
    refuseTrashedTargets(payload, calendarSlugs)
    guardLockedDocuments(payload)
    guardAccountLinks(payload)
    shapeJobEndpoints(payload)
    keepBulkWritesWhole(payload)
    takeTurnsOnUpdates(payload)
    // The one part of the schema made at start (docs/architecture.md, "The schema"): a schema push runs no migrations.
    if (schemaPushed(payload)) await rawQuery(payload, sql.raw(CALENDAR_SCHEMA))
    await warnOnNarrowEncoding(payload)
    instrumentPool(payload)
    installMetricsSource(payload)
    offerJobsDrain(payload)
    // From now on the server in front of Next may keep the namespace's anonymous answers (src/server/frontDoor.ts).
    namespaceRegistry(payload)
  }
}

/**
 * Adds the calendar to a Payload config: its collections (shaped by the options), the settings
 * global, the namespace's endpoints and the languages. The incoming config is never modified.
 */
export function calendarPlugin(options: CalendarPluginOptions = {}) {
  keepErrorNames()
  return (config: Config): Config => {
    const { collections, customFields } = calendarCollections(options.collections ?? {})
    const namespace = (options.namespace ?? DEFAULT_NAMESPACE).replace(/^\/+|\/+$/g, '')
    const runtime: CalendarRuntime = {
      namespace,
      permalinks: { ...DEFAULT_PERMALINKS, ...options.permalinks },
      settingsGlobal: options.settingsGlobal !== false,
      publicPages: options.publicPages !== false,
      customFields,
    }
    return {
      ...config,
      cors: withRequestHeaders(config.cors, [IDEMPOTENCY_HEADER, METHOD_OVERRIDE_HEADER]),
      admin: withAdmin(config.admin),
      i18n: { ...config.i18n, translations: withWords(config.i18n?.translations, AUTOSAVE_WORDS) },
      localization: config.localization || localizationFor(options.languages),
      collections: [...(config.collections ?? []), ...collections],
      globals: [...(config.globals ?? []), ...(runtime.settingsGlobal ? [Settings] : [])],
      // The reference's endpoints before the namespace's catch-all: Payload answers with the first match.
      endpoints: [
        ...(config.endpoints ?? []),
        healthEndpoint,
        ...referenceEndpoints(namespace),
        ...namespaceEndpoints(namespace),
      ],
      custom: { ...config.custom, calendar: runtime },
      // A request's mistakes are logged as information, not as the server's failures; Payload's
      // type lists only its own errors' names, its logger looks any name up.
      loggingLevels: {
        QueryError: 'info',
        // A request without a session to a route that needs one; failed sign-ins stay errors (named,
        // since a 4xx no name places is logged as information, `logMistakesAtTheirLevel`), and an
        // address throttled for them is a warning: the guessing goes on, the server is fine.
        UnauthorizedError: 'info',
        AuthenticationError: 'error',
        [LOGIN_THROTTLED]: 'warn',
        ...config.loggingLevels,
      } as Config['loggingLevels'],
      hooks: {
        ...config.hooks,
        afterError: [
          ...(config.hooks?.afterError ?? []),
          databaseUnavailableAfterError,
          writeConflictAfterError,
          unreadableValueAfterError,
          malformedFormAfterError,
        ],
      },
      graphQL: withGraphQL(config.graphQL),
      jobs: withJobs(config.jobs, options),
      onInit: withInit(
        config.onInit,
        collections.map((collection) => collection.slug as CollectionSlug),
      ),
    }
  }
}
