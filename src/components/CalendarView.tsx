import { DefaultTemplate } from '@payloadcms/next/templates'
import { Gutter } from '@payloadcms/ui'
import { RenderServerComponent } from '@payloadcms/ui/elements/RenderServerComponent'
import { redirect } from 'next/navigation'
import type { AdminViewServerProps } from 'payload'
import { formatAdminURL } from 'payload/shared'
import { floatingWallClock } from '../calendar/dates/wallClock'
import { siteSettings } from '../globals/siteSettings'
import { calendarRuntime } from '../options'
import { CALENDAR_VIEW_PATH, EVENT_CALENDAR } from './calendarQuery'

/**
 * `/admin/calendar`: the events as a month or week grid, in the admin's template (navigation and
 * header). Payload serves custom views to anyone, so the view turns away, as the admin's own views
 * do, whoever may not use the admin: to the sign-in page, or to "unauthorized" when signed in.
 */
export async function CalendarView({ initPageResult, params, searchParams }: AdminViewServerProps) {
  const { req, permissions, locale, visibleEntities } = initPageResult
  const { payload, user } = req
  const { routes, admin } = payload.config
  if (!permissions.canAccessAdmin) {
    const query = new URLSearchParams(
      Object.entries(searchParams ?? {}).flatMap(([key, value]) =>
        typeof value === 'string' ? [[key, value]] : [],
      ),
    )
    const back = `${formatAdminURL({ adminRoute: routes.admin, path: CALENDAR_VIEW_PATH })}${query.size ? `?${query}` : ''}`
    redirect(
      user
        ? formatAdminURL({ adminRoute: routes.admin, path: admin.routes.unauthorized })
        : `${formatAdminURL({ adminRoute: routes.admin, path: admin.routes.login })}?${new URLSearchParams({ redirect: back })}`,
    )
  }
  // "Today" on the site's clock, where events without a zone of their own live.
  const { timezone } = await siteSettings(req, calendarRuntime(payload.config).settingsGlobal)
  const today = floatingWallClock(new Date(), timezone).toISOString().slice(0, 10)
  return (
    <DefaultTemplate
      i18n={req.i18n}
      locale={locale}
      params={params}
      payload={payload}
      permissions={permissions}
      req={req}
      searchParams={searchParams}
      user={user ?? undefined}
      visibleEntities={{
        collections: visibleEntities.collections,
        globals: visibleEntities.globals,
      }}
    >
      <Gutter>
        {RenderServerComponent({
          Component: EVENT_CALENDAR,
          importMap: payload.importMap,
          clientProps: { today },
        })}
      </Gutter>
    </DefaultTemplate>
  )
}
