import config from '@payload-config'
import { languageRootHandlers } from 'cal-events/routes'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD } = languageRootHandlers(config)
