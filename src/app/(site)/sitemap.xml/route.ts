import { sitemapRoute } from '../pages'

export const { GET } = sitemapRoute
