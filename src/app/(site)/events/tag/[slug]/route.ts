import { tagRoute } from '../../../pages'

export const { GET } = tagRoute
