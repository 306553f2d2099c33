import config from '@payload-config'
import { restRootHandlers } from 'cal-events/routes'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD } = restRootHandlers(config)
