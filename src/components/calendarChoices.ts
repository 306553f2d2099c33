import type { ClientConfig, ClientField } from 'payload'
import type { Option } from './calendarReads'

/** A label of the client config: a string, or one per interface language. */
function labelText(label: unknown, language: string, fallback: string): string {
  if (typeof label === 'string') return label
  if (label && typeof label === 'object') {
    const translations = label as Record<string, string>
    return translations[language] ?? translations.en ?? fallback
  }
  return fallback
}

/** A named field anywhere in the collection's layout (rows, collapsibles, tabs). */
function findField(fields: ClientField[], name: string): ClientField | undefined {
  for (const field of fields) {
    if ('name' in field && field.name === name) return field
    const nested =
      'fields' in field
        ? field.fields
        : 'tabs' in field
          ? field.tabs.flatMap((tab) => tab.fields)
          : []
    const found = findField(nested, name)
    if (found) return found
  }
  return undefined
}

/**
 * The choices the client config gives, labelled in the interface language: the events' statuses
 * (the `status` field's options) and the app's languages (none without localization).
 */
export function calendarChoices(config: ClientConfig, language: string) {
  const events = config.collections.find((collection) => collection.slug === 'events')
  const statusField = events && findField(events.fields, 'status')
  const statuses: Option[] = (
    statusField && 'options' in statusField ? statusField.options : []
  ).map((option) =>
    typeof option === 'string'
      ? { value: option, label: option }
      : { value: option.value, label: labelText(option.label, language, option.value) },
  )
  const statusLabel = (value: string | null | undefined) =>
    statuses.find((status) => status.value === value)?.label ?? value ?? ''
  const languages: Option[] = config.localization
    ? config.localization.locales.map((known) => ({
        value: known.code,
        label: labelText(known.label, language, known.code),
      }))
    : []
  return { statuses, statusLabel, languages }
}
