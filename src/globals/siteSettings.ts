import type { PayloadRequest } from 'payload'
import { SETTINGS_DEFAULTS } from './Settings'

export type SiteSettings = typeof SETTINGS_DEFAULTS

/** Where a request keeps the settings it has read, for the hooks of the writes it makes. */
const READ = 'calendarSettingsRead'

/** The settings this request has read: its writes' hooks use them rather than read them again. */
export function keepSettingsRead(req: PayloadRequest, settings: SiteSettings): void {
  req.context[READ] = settings
}

/** The settings global with every empty value replaced by its default. */
export async function siteSettings(req: PayloadRequest, global = true): Promise<SiteSettings> {
  if (!global) return { ...SETTINGS_DEFAULTS }
  const read = req.context[READ] as SiteSettings | undefined
  if (read) return { ...read }
  const stored = (await req.payload.findGlobal({
    slug: 'settings',
    req,
    depth: 0,
    overrideAccess: true,
  })) as Partial<Record<keyof SiteSettings, unknown>>
  const settings = { ...SETTINGS_DEFAULTS }
  for (const key of Object.keys(SETTINGS_DEFAULTS) as (keyof SiteSettings)[]) {
    const value = stored[key]
    if (value !== null && value !== undefined && value !== '')
      Object.assign(settings, { [key]: value })
  }
  return settings
}
