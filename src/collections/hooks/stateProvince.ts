import type { CollectionBeforeChangeHook } from 'payload'

const US = ['', 'us', 'usa', 'united states', 'united states of america']

/** Upstream derives `stateprovince` when it is left empty: the state in the US, else the province. */
export const deriveStateProvince: CollectionBeforeChangeHook = ({ data, originalDoc }) => {
  const merged = { ...originalDoc, ...data }
  if (merged.stateprovince) return data
  const inUS = US.includes(
    String(merged.country ?? '')
      .trim()
      .toLowerCase(),
  )
  const derived = inUS ? merged.state || merged.province : merged.province || merged.state
  if (derived) data.stateprovince = derived
  return data
}
