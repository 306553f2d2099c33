import { isLanguageCode, type LanguageCode } from '../i18n/languages'

/** Written the way HTML and Intl write them, where the namespace's own codes differ. */
const TAGS: Partial<Record<LanguageCode, string>> = {
  'zh-hans': 'zh-Hans',
  'pt-br': 'pt-BR',
  ua: 'uk',
  prs: 'fa-AF',
}
const ALIASES: Record<string, LanguageCode> = {
  'fa-af': 'prs',
  uk: 'ua',
  zh: 'zh-hans',
  'zh-cn': 'zh-hans',
  pt: 'pt-br',
}

/** The namespace's language for a `lang` attribute, in either spelling; English when it names none of the 23. */
export function languageOf(attribute: string | null): LanguageCode {
  const code = (attribute ?? '').trim().toLowerCase()
  if (isLanguageCode(code)) return code
  return (
    ALIASES[code] ??
    ALIASES[code.split('-')[0]!] ??
    (isLanguageCode(code.split('-')[0]) ? (code.split('-')[0] as LanguageCode) : 'en')
  )
}

export function languageTag(language: LanguageCode): string {
  return TAGS[language] ?? language
}
