import { categoryRoute } from '../../../../pages'

export const { GET } = categoryRoute
