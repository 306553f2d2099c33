import { isLanguageCode, type LanguageCode } from '../i18n/languages'

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
