import { eventRoute } from '../../../pages'

export const { GET, POST } = eventRoute
