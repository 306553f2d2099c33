import type { CollectionConfig, Config, Endpoint } from 'payload'
import { Events } from './collections/Events'
import { Media } from './collections/Media'
import { Organizers } from './collections/Organizers'
import { EventCategories, EventTags } from './collections/terms'
import { Users } from './collections/Users'
import { Venues } from './collections/Venues'
import { Settings } from './globals/Settings'
import { localizationFor } from './i18n/localization'
import { healthEndpoint } from './rest/health'
import { namespaceEndpoints } from './rest/mount'
import { instrumentPool } from './database/queryCount'

export type CalendarPluginOptions = {
  /** Languages to offer, as codes of the namespace (default: all 23). */
  languages?: string[]
}

/** Adds the calendar (collections, settings, endpoints, languages) to a Payload config. */
export function calendarPlugin(options: CalendarPluginOptions = {}) {
  return (config: Config): Config => {
    const collections: CollectionConfig[] = [Events, Venues, Organizers, EventCategories, EventTags, Media, Users]
    const endpoints: Endpoint[] = [healthEndpoint, ...namespaceEndpoints]
    return {
      ...config,
      admin: { ...config.admin, user: config.admin?.user ?? Users.slug },
      localization: config.localization || localizationFor(options.languages),
      collections: [...(config.collections ?? []), ...collections],
      globals: [...(config.globals ?? []), Settings],
      endpoints: [...(config.endpoints ?? []), ...endpoints],
      onInit: async (payload) => {
        await config.onInit?.(payload)
        instrumentPool(payload)
      },
    }
  }
}
