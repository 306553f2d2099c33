import { eventsRoute } from '../../pages'

export const { GET } = eventsRoute
