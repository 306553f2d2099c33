import { organizerRoute } from '../../../pages'

export const { GET } = organizerRoute
