import { languageTag, type LanguageCode } from './languages'

/** A count's wording for each plural category of its language (`#` stands for the count). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

type PluralRules = { select(count: number): Intl.LDMLPluralRule }

/** Rules that put every count in `other`. */
const OTHER_ALONE: PluralRules = { select: () => 'other' }

const rulesOf = new Map<LanguageCode, PluralRules>()

/**
 * A language's plural rules, as Intl has them for its BCP 47 tag (`ua` is `uk`). Given a tag it has no
 * rules for, Intl takes the process's default locale's instead, whatever the server's environment
 * names (Kinyarwanda and Yucatec Maya on Node 20: under `LANG=ru_RU`, Russian's): such a language
 * has `other` alone, one form for every count.
 */
export function pluralRulesOf(language: LanguageCode): PluralRules {
  let rules = rulesOf.get(language)
  if (!rules) {
    const tag = languageTag(language)
    rules = Intl.PluralRules.supportedLocalesOf(tag).length
      ? new Intl.PluralRules(tag)
      : OTHER_ALONE
    rulesOf.set(language, rules)
  }
  return rules
}

/**
 * A count in the form its language's rules choose: English says `1 second`, French `0 seconde` and
 * `1 seconde`, Arabic has a form for 0, 1, 2, 3 to 10, 11 to 99 and 100 and more. A form missing
 * for the category chosen is the table's mistake, thrown rather than said in `other`, which hid it;
 * tests/unit/translations.test.ts asks every language for every count that chooses a category.
 */
export function counted(language: LanguageCode, count: number, forms: PluralForms): string {
  const category = pluralRulesOf(language).select(count)
  const form = forms[category]
  if (form === undefined) throw new Error(`No ${category} form in ${language} for ${count}`)
  return form.replace('#', String(count))
}
