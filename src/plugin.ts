import type { CollectionConfig, Config, Endpoint, TaskConfig } from 'payload'
import { isAdministrator } from './calendar/access/collectionAccess'
import { RESOURCES } from './calendar/resources'
import { Events } from './collections/Events'
import { Imports } from './collections/Imports'
import { ImportSubscriptions } from './collections/ImportSubscriptions'
import { Media } from './collections/Media'
import { Organizers } from './collections/Organizers'
import { addedFields, withOverrides } from './collections/overrides'
import { EventCategories, EventTags } from './collections/terms'
import { AUTOSAVE_WORDS } from './collections/drafts'
import { FORGET_SECONDS } from './collections/hooks/loginThrottle'
import { Users } from './collections/Users'
import { Venues } from './collections/Venues'
import { DELIVER_JOB, pruneDeliveries, WebhookDeliveries, Webhooks } from './collections/Webhooks'
import { databaseUnavailableAfterError, handleConnectionErrors } from './database/connectionErrors'
import { installChangeLog, pruneChanges } from './database/changeLog'
import { installIdempotency, pruneKeys } from './database/idempotency'
import { installLoginThrottle, pruneLoginFailures } from './database/loginThrottle'
import { installRateBuckets, pruneRateBuckets } from './database/rateBuckets'
import { exclusively } from './database/exclusive'
import { instrumentPool } from './database/queryCount'
import { installRevision } from './database/revision'
import { installSerialPlans } from './database/serialPlans'
import { installListDayCounts } from './database/listDayCounts'
import { installListIndexes } from './database/listIndexes'
import { installTermCounts } from './database/termCountTable'
import { installTermNameCollation } from './database/termNameCollation'
import { HORIZON_JOB, PRUNE_CHANGES_JOB, PUBLISH_JOB, Settings } from './globals/Settings'
import { siteSettings } from './globals/siteSettings'
import { DEFAULT_LANGUAGE } from './i18n/languages'
import { localizationFor } from './i18n/localization'
import { DEFAULT_NAMESPACE, DEFAULT_PERMALINKS, type CalendarPluginOptions, type CalendarRuntime } from './options'
import { installImportMap } from './imports/mapping'
import { subscriptionTask } from './imports/subscriptions'
import { importTask } from './imports/task'
import { healthEndpoint } from './rest/health'
import { IDEMPOTENCY_HEADER } from './rest/idempotency'
import { namespaceEndpoints } from './rest/mount'
import { extendHorizons } from './collections/series'
import { publishDue } from './collections/scheduledPublishing'
import { referenceEndpoints } from './rest/reference'
import { deliverWebhooks } from './webhooks/deliver'
import { installMetricsSource } from './rest/metricsSource'
import { namespaceRegistry } from './rest/sharedAnswers'
import { CALENDAR_VIEW_PATH, EVENT_CALENDAR } from './components/calendarQuery'

export type { CalendarPluginOptions, CollectionOverrides } from './options'
/** Suggestions for `@payloadcms/plugin-seo` on events: `seoPlugin({ collections: ['events'], ...eventSeo })`. */
export { eventSeo } from './collections/seo'

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

/**
 * Keeps every series materialized up to the horizon as time passes (docs/api.md §16.3): daily, and
 * whenever the horizon setting changes. Each run only adds the days the horizon newly reaches.
 */
const horizonTask: TaskConfig<typeof HORIZON_JOB.task> = {
  slug: HORIZON_JOB.task,
  schedule: [{ cron: '0 3 * * *', queue: HORIZON_JOB.queue }],
  outputSchema: [{ name: 'series', type: 'number', required: true }],
  // Runs on several instances wait for each other: two at once could both add the same new day.
  handler: async ({ req }) => ({
    output: {
      series: await exclusively(req.payload, HORIZON_JOB.task, async () =>
        extendHorizons({ req, now: new Date(), settings: await siteSettings(req), language: DEFAULT_LANGUAGE }),
      ),
    },
  }),
}

/**
 * Forgets changes and webhook delivery logs past the retention (docs/api.md §18, §20), idempotency keys
 * past their 24 hours (§19), and the rate-limit buckets and failed sign-ins that no longer count
 * (docs/operations.md), daily.
 */
const pruneChangesTask: TaskConfig<typeof PRUNE_CHANGES_JOB.task> = {
  slug: PRUNE_CHANGES_JOB.task,
  schedule: [{ cron: '30 3 * * *', queue: PRUNE_CHANGES_JOB.queue }],
  outputSchema: [{ name: 'pruned', type: 'number', required: true }],
  handler: async ({ req }) => {
    const { changesRetentionDays } = await siteSettings(req)
    await pruneKeys(req.payload)
    await pruneRateBuckets(req.payload)
    await pruneLoginFailures(req.payload, FORGET_SECONDS)
    await pruneDeliveries(req, changesRetentionDays)
    return { output: { pruned: await pruneChanges(req.payload, changesRetentionDays) } }
  },
}

/** Publishes what came due, every minute; runs on several instances wait for each other. */
const publishTask: TaskConfig<typeof PUBLISH_JOB.task> = {
  slug: PUBLISH_JOB.task,
  schedule: [{ cron: '* * * * *', queue: PUBLISH_JOB.queue }],
  outputSchema: [{ name: 'published', type: 'number', required: true }],
  handler: async ({ req }) => ({ output: { published: await exclusively(req.payload, PUBLISH_JOB.task, () => publishDue(req)) } }),
}

/**
 * Sends what changed to the webhooks (docs/api.md §20). Each endpoint is served under a lock of its
 * own, so it gets its changes once and in order whatever the number of instances.
 */
const deliverTask: TaskConfig<typeof DELIVER_JOB.task> = {
  slug: DELIVER_JOB.task,
  schedule: [{ cron: DELIVER_JOB.every, queue: DELIVER_JOB.queue }],
  outputSchema: [
    { name: 'delivered', type: 'number', required: true },
    { name: 'failed', type: 'number', required: true },
  ],
  handler: async ({ req }) => ({ output: await deliverWebhooks(req) }),
}

/** `POST /api/webhooks/deliver`: one delivery pass now, for administrators (after fixing a receiver, say). */
const deliverNow: Endpoint = {
  path: '/deliver',
  method: 'post',
  handler: async (req) => {
    if (!isAdministrator({ req } as never)) return Response.json({ errors: [{ message: 'You are not allowed to perform this action.' }] }, { status: 403 })
    return Response.json(await deliverWebhooks(req))
  },
}

/** The change log's tables: each resource's collection, reported by its singular (docs/api.md §18). */
const CHANGE_SOURCES = RESOURCES.map((resource) => ({ table: resource.collection.replace(/-/g, '_'), type: resource.singular }))

/** The events list's link to the calendar, before the table, after whatever the app put there. */
function withCalendarLink(events: CollectionConfig): CollectionConfig {
  const components = events.admin?.components
  return {
    ...events,
    admin: { ...events.admin, components: { ...components, beforeListTable: [...(components?.beforeListTable ?? []), CALENDAR_LIST_LINK] } },
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
  const merged: Record<string, Record<string, Record<string, string>>> = { ...(own as Record<string, Record<string, Record<string, string>>>) }
  for (const [language, groups] of Object.entries(words)) {
    const mine = merged[language] ?? {}
    merged[language] = { ...mine, version: { ...groups.version, ...mine.version } }
  }
  return merged as Translations
}

/**
 * Adds the calendar to a Payload config: its collections (shaped by the options), the settings
 * global, the namespace's endpoints and the languages. The incoming config is never modified.
 */
export function calendarPlugin(options: CalendarPluginOptions = {}) {
  return (config: Config): Config => {
    const overrides = options.collections ?? {}
    const events = withCalendarLink(withOverrides(Events, overrides.events))
    const venues = withOverrides(Venues, overrides.venues)
    const organizers = withOverrides(Organizers, overrides.organizers)
    const collections: CollectionConfig[] = [
      events,
      venues,
      organizers,
      withOverrides(EventCategories, overrides['event-categories']),
      withOverrides(EventTags, overrides['event-tags']),
      Media,
      Users,
      { ...Webhooks, endpoints: [...(Webhooks.endpoints || []), deliverNow] },
      WebhookDeliveries,
      Imports,
      ImportSubscriptions,
    ]
    const namespace = (options.namespace ?? DEFAULT_NAMESPACE).replace(/^\/+|\/+$/g, '')
    const runtime: CalendarRuntime = {
      namespace,
      permalinks: { ...DEFAULT_PERMALINKS, ...options.permalinks },
      settingsGlobal: options.settingsGlobal !== false,
      publicPages: options.publicPages !== false,
      customFields: {
        events: addedFields(Events.fields, events.fields),
        venues: addedFields(Venues.fields, venues.fields),
        organizers: addedFields(Organizers.fields, organizers.fields),
      },
    }
    return {
      ...config,
      cors: withRequestHeaders(config.cors, [IDEMPOTENCY_HEADER]),
      admin: {
        ...config.admin,
        user: config.admin?.user ?? Users.slug,
        components: {
          ...config.admin?.components,
          afterNavLinks: [...(config.admin?.components?.afterNavLinks ?? []), CALENDAR_NAV_LINK, API_REFERENCE_LINK],
          header: [...(config.admin?.components?.header ?? []), AUTOSAVE_CONTROLS],
          views: { ...config.admin?.components?.views, eventCalendar: { Component: CALENDAR_VIEW, path: CALENDAR_VIEW_PATH, exact: true } },
        },
        dependencies: { ...config.admin?.dependencies, eventCalendar: { path: EVENT_CALENDAR, type: 'component' } },
      },
      i18n: { ...config.i18n, translations: withWords(config.i18n?.translations, AUTOSAVE_WORDS) },
      localization: config.localization || localizationFor(options.languages),
      collections: [...(config.collections ?? []), ...collections],
      globals: [...(config.globals ?? []), ...(runtime.settingsGlobal ? [Settings] : [])],
      // The reference's endpoints before the namespace's catch-all: Payload answers with the first match.
      endpoints: [...(config.endpoints ?? []), healthEndpoint, ...referenceEndpoints(namespace), ...namespaceEndpoints(namespace)],
      custom: { ...config.custom, calendar: runtime },
      hooks: { ...config.hooks, afterError: [...(config.hooks?.afterError ?? []), databaseUnavailableAfterError] },
      jobs: {
        ...config.jobs,
        tasks: [...(config.jobs?.tasks ?? []), horizonTask, pruneChangesTask, publishTask, deliverTask, importTask, subscriptionTask],
        access: { ...config.jobs?.access, run: config.jobs?.access?.run ?? ((args) => Boolean(isAdministrator(args as never))) },
        // The queue is polled by the server itself, which also queues the scheduled runs.
        autoRun: async (payload) => {
          const own = config.jobs?.autoRun
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
      },
      onInit: async (payload) => {
        await config.onInit?.(payload)
        handleConnectionErrors(payload)
        await installRevision(payload)
        await installChangeLog(payload, CHANGE_SOURCES)
        await installIdempotency(payload)
        await installImportMap(payload)
        await installLoginThrottle(payload)
        await installRateBuckets(payload)
        await installTermCounts(payload)
        await installListDayCounts(payload)
        await installListIndexes(payload)
        await installSerialPlans(payload)
        await installTermNameCollation(payload)
        instrumentPool(payload)
        installMetricsSource(payload)
        // From now on the server in front of Next may keep the namespace's anonymous answers (src/rest/frontDoor.ts).
        namespaceRegistry(payload)
      },
    }
  }
}
