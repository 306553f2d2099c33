import { useMemo } from 'react'

/**
 * The text with plain spaces: ICU versions space dates differently (Node's writes thin spaces around
 * a range's dash, Chromium's plain ones), and the text the server renders must be the browser's, or
 * React throws the page's text away (error #418).
 */
const spaced = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, ' ')

/**
 * Formats `YYYY-MM-DD[ HH:MM:SS]` wall-clock text as it reads on the event's own clock, in the
 * admin's language (English if Intl cannot read its code): the text is read as UTC and formatted
 * in UTC, so neither the browser's zone nor the event's moves it.
 */
export function useWallClockFormat(locale: string, options: Intl.DateTimeFormatOptions) {
  return useMemo(() => {
    let format: Intl.DateTimeFormat
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })
    } catch {
      format = new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' })
    }
    const dateOf = (wall: string) =>
      new Date(`${wall.slice(0, 10)}T${wall.slice(11) || '00:00:00'}Z`)
    return {
      format: (wall: string | undefined) => (wall ? spaced(format.format(dateOf(wall))) : ''),
      range: (from: string, to: string) => spaced(format.formatRange(dateOf(from), dateOf(to))),
    }
    // The options are constants of the callers.
  }, [locale])
}
