import { useConfig } from '@payloadcms/ui'
import { useEffect, useState } from 'react'

/**
 * Reads Payload's REST API from the admin, as the signed-in editor (the session cookie), so what
 * the components show is what that editor may read.
 */
export function useAdminApi() {
  const { config } = useConfig()
  const api = `${config.serverURL}${config.routes.api}`
  const admin = config.routes.admin
  const get = async <T>(
    route: string,
    query: Record<string, string | number> = {},
  ): Promise<T | undefined> => {
    const search = new URLSearchParams(
      Object.entries(query).map(([key, value]) => [key, String(value)]),
    )
    const response = await fetch(`${api}${route}?${search}`, { credentials: 'include' })
    return response.ok ? ((await response.json()) as T) : undefined
  }
  return { get, admin, api }
}

/**
 * The read of the settings in flight, by API address: an event's form has four fields that want the
 * site's zone, and they open together, so they share one request. Dropped once answered: a form opened
 * later reads the setting afresh.
 */
const zoneReads = new Map<string, Promise<string>>()

/**
 * The site's time zone (the settings global), which events without a zone of their own use; UTC when
 * the app has no settings global. Undefined until it is read.
 */
export function useSiteZone(): string | undefined {
  const { get, api } = useAdminApi()
  const [zone, setZone] = useState<string>()
  useEffect(() => {
    let current = true
    let read = zoneReads.get(api)
    if (!read) {
      read = get<{ timezone?: string }>('/globals/settings', { depth: 0 })
        .then((settings) => settings?.timezone || 'UTC')
        .catch(() => 'UTC')
        .finally(() => zoneReads.delete(api))
      zoneReads.set(api, read)
    }
    void read.then((found) => {
      if (current) setZone(found)
    })
    return () => {
      current = false
    }
    // Once per form: the setting does not change under an editor.
  }, [])
  return zone
}
