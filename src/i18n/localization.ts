import type { LocalizationConfig } from 'payload'
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages'

/** Payload's field localization for a subset of the namespace's languages (all of them by default). */
export function localizationFor(
  codes: readonly string[] = LANGUAGES.map((l) => l.code),
): LocalizationConfig {
  const locales = LANGUAGES.filter((language) => codes.includes(language.code)).map((language) => ({
    code: language.code,
    label: language.label,
    rtl: 'rtl' in language ? language.rtl : false,
  }))
  return { locales, defaultLocale: DEFAULT_LANGUAGE, fallback: true }
}
