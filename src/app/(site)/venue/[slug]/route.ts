import { venueRoute } from '../../pages'

export const { GET } = venueRoute
