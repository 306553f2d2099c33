import { listEvents, readEvent, readEventBySlug } from './handlers/events'
import { defineRoute, type Route } from './route'
import { eventByIdParams, eventBySlugParams, eventListParams } from './schemas/events'

/** The namespace: every route, in upstream's registration order. The one place routes are declared. */
export const ROUTES: Route[] = [
  defineRoute({
    methods: ['GET'],
    path: '/events',
    summary: 'List events',
    params: eventListParams,
    handler: listEvents,
  }),
  defineRoute({
    methods: ['GET'],
    path: '/events/{id}',
    summary: 'Read an event',
    params: eventByIdParams,
    handler: (ctx, params) => readEvent(ctx, params.id, params),
  }),
  defineRoute({
    methods: ['GET'],
    path: '/events/by-slug/{slug}',
    summary: 'Read an event by slug',
    params: eventBySlugParams,
    handler: (ctx, params) => readEventBySlug(ctx, params.slug, params),
  }),
] as Route[]
