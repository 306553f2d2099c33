/** The languages of the namespace (`i18n_language`) and of Payload's field localization: one list. */
export const LANGUAGES = [
  { code: 'am', label: 'አማርኛ' },
  { code: 'ar', label: 'العربية', rtl: true },
  { code: 'bn', label: 'বাংলা' },
  { code: 'zh-hans', label: '简体中文' },
  { code: 'prs', label: 'دری', rtl: true },
  { code: 'en', label: 'English' },
  { code: 'fr', label: 'Français' },
  { code: 'de', label: 'Deutsch' },
  { code: 'ha', label: 'Hausa' },
  { code: 'hi', label: 'हिन्दी' },
  { code: 'it', label: 'Italiano' },
  { code: 'ja', label: '日本語' },
  { code: 'rw', label: 'Kinyarwanda' },
  { code: 'ps', label: 'پښتو', rtl: true },
  { code: 'pt-br', label: 'Português (Brasil)' },
  { code: 'ru', label: 'Русский' },
  { code: 'es', label: 'Español' },
  { code: 'sw', label: 'Kiswahili' },
  { code: 'tr', label: 'Türkçe' },
  { code: 'ua', label: 'Українська' },
  { code: 'ur', label: 'اردو', rtl: true },
  { code: 'vi', label: 'Tiếng Việt' },
  { code: 'yua', label: 'Maaya t’aan' },
] as const satisfies readonly { code: string; label: string; rtl?: boolean }[]

export type LanguageCode = (typeof LANGUAGES)[number]['code']

export const DEFAULT_LANGUAGE = 'en' satisfies LanguageCode

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && LANGUAGES.some((language) => language.code === value)
}

/** Whether the language is written right to left (the pages' `dir`, the widget's). */
export function isRightToLeft(language: LanguageCode): boolean {
  return LANGUAGES.some((entry) => entry.code === language && 'rtl' in entry && entry.rtl)
}

/** BCP 47 tags, as HTML and Intl write them, for the namespace's codes that are not one already. */
const TAGS: Partial<Record<LanguageCode, string>> = {
  'zh-hans': 'zh-Hans',
  'pt-br': 'pt-BR',
  ua: 'uk',
  prs: 'fa-AF',
}

export function languageTag(language: LanguageCode): string {
  return TAGS[language] ?? language
}
