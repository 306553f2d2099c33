import { describe, expect, it } from 'vitest'
import { LANGUAGES, languageTag, type LanguageCode } from '../../src/i18n/languages'
import { messagesOf, pageMessagesOf } from '../../src/i18n/messages'
import { pluralRulesOf } from '../../src/i18n/plurals'
import { widgetMessages } from '../../src/widget/messages'

/** Every leaf of a table as `path: text`, functions called with sample arguments, so that their words show. */
function leaves(table: object, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {}
  for (const [key, value] of Object.entries(table)) {
    const path = `${prefix}${key}`
    if (typeof value === 'string') found[path] = value
    else if (typeof value === 'function') found[path] = String(value(417, 9031))
    else Object.assign(found, leaves(value as object, `${path}.`))
  }
  return found
}

const TABLES = [
  {
    name: "the widget's words",
    of: widgetMessages,
    ownWords: ['today', 'addToCalendar', 'noEvents', 'close', 'loading', 'views.week'],
  },
  {
    name: "the public pages' words",
    of: pageMessagesOf,
    ownWords: [
      'events',
      'noEventsThisMonth',
      'previousMonth',
      'showEvent',
      'notFound',
      'wrongPassword',
    ],
  },
  {
    name: "the namespace's and feeds' words",
    of: messagesOf,
    ownWords: ['privateTitle', 'events', 'featuredOnly', 'notFeatured', 'or'],
  },
]

describe.each(TABLES)('$name', ({ of, ownWords }) => {
  const english = leaves(of('en'))

  it.each(LANGUAGES.map((language) => language.code))(
    'are all written in %s, none left empty',
    (code) => {
      const words = leaves(of(code))
      expect(Object.keys(words).sort()).toEqual(Object.keys(english).sort())
      for (const [key, text] of Object.entries(words))
        expect(text.trim(), `${code} ${key}`).not.toBe('')
    },
  )

  it.each(LANGUAGES.map((language) => language.code).filter((code) => code !== 'en'))(
    'are not English copies in %s',
    (code) => {
      const words = leaves(of(code))
      for (const key of ownWords) expect(words[key], `${code} ${key}`).not.toBe(english[key])
    },
  )

  it('keep the numbers they are given in every language', () => {
    for (const { code } of LANGUAGES)
      for (const [key, text] of Object.entries(leaves(of(code))))
        if (/417|9031/.test(english[key]!))
          expect(text, `${code} ${key}`).toMatch(
            english[key]!.includes('9031') ? /417[\s\S]*9031|9031[\s\S]*417/ : /417/,
          )
  })
})

describe("the password throttle's wait on the public pages", () => {
  const said = (code: LanguageCode, seconds: number) =>
    pageMessagesOf(code).tooManyPasswords(seconds)

  it('is counted in the forms of the languages whose words change with the number', () => {
    for (const [code, one, two] of [
      ['en', 'in 1 second.', 'in 2 seconds.'],
      ['fr', 'dans 1 seconde.', 'dans 2 secondes.'],
      ['de', 'in 1 Sekunde erneut.', 'in 2 Sekunden erneut.'],
      ['it', 'tra 1 secondo.', 'tra 2 secondi.'],
      ['pt-br', 'em 1 segundo.', 'em 2 segundos.'],
      ['es', 'en 1 segundo.', 'en 2 segundos.'],
    ] as const) {
      expect(said(code, 1), code).toMatch(new RegExp(`${one}$`))
      expect(said(code, 2), code).toMatch(new RegExp(`${two}$`))
    }
    // Arabic: one and two by the noun alone, 3 to 10 in the plural, 11 and more in the singular.
    expect(said('ar', 1)).toMatch(/بعد ثانية واحدة\.$/)
    expect(said('ar', 2)).toMatch(/بعد ثانيتين\.$/)
    expect(said('ar', 8)).toMatch(/بعد 8 ثوانٍ\.$/)
    expect(said('ar', 16)).toMatch(/بعد 16 ثانية\.$/)
  })

  it('has a form for every plural category a count chooses, in every language', () => {
    // 0 to 200 meet every category that depends on the last two digits; a fraction and a million
    // meet those of decimals and of large round numbers (French `1000000 de secondes`).
    const counts = [...Array.from({ length: 201 }, (_, count) => count), 1.5, 1_000_000]
    const missing: string[] = []
    for (const { code } of LANGUAGES) {
      const { tooManyPasswords } = pageMessagesOf(code)
      for (const count of counts)
        try {
          tooManyPasswords(count)
        } catch (error) {
          missing.push((error as Error).message)
        }
    }
    expect(missing).toEqual([])
  })

  it("counts by each language's own rules, never by the default locale's", () => {
    // Ukrainian's code is `uk` to Intl: as `ua` it counted in the process's default locale.
    expect([1, 2, 5, 11, 21].map((count) => pluralRulesOf('ua').select(count))).toEqual([
      'one',
      'few',
      'many',
      'many',
      'one',
    ])
    // Intl has no rules for these: every count is `other`, whatever locale the process runs in.
    for (const code of ['rw', 'yua'] as const)
      expect(
        [0, 1, 2, 1.5].map((count) => pluralRulesOf(code).select(count)),
        code,
      ).toEqual(['other', 'other', 'other', 'other'])
    const withoutRules = LANGUAGES.map(({ code }) => code).filter(
      (code) => !Intl.PluralRules.supportedLocalesOf(languageTag(code)).length,
    )
    expect(withoutRules).toEqual(['rw', 'yua'])
  })
})
