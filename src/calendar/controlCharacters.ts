/**
 * `text` without the control characters (C0, DEL, C1) that neither iCalendar's TEXT nor a stored
 * value may hold (a NUL, U+0001); tabs and line ends stay.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(/[^\P{Cc}\t\n\r]/gu, '')
}
