/** The namespace's name and version, as websites address it under the REST root. */
export const NAMESPACE = 'cal/events/v1'
