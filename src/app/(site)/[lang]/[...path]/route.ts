import { permalinkRoute } from '../../pages'

export const { GET, POST } = permalinkRoute
