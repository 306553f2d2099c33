import type { CollectionBeforeChangeHook } from 'payload'

const US = ['', 'us', 'usa', 'united states', 'united states of america']

/** Whether a venue's country is the United States, where upstream calls the region a state (and a province elsewhere); no country counts as the US, as upstream. */
export function inUnitedStates(country: unknown): boolean {
  return US.includes(
    String(country ?? '')
      .trim()
      .toLowerCase(),
  )
}

/** Upstream derives `stateprovince` when it is left empty: the state in the US, else the province. */
export const deriveStateProvince: CollectionBeforeChangeHook = ({ data, originalDoc }) => {
  const merged = { ...originalDoc, ...data }
  if (merged.stateprovince) return data
  const derived = inUnitedStates(merged.country)
    ? merged.state || merged.province
    : merged.province || merged.state
  if (derived) data.stateprovince = derived
  return data
}
