import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../../src/i18n/languages'
import { messagesOf, pageMessagesOf } from '../../src/i18n/messages'
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
