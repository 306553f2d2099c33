import type { Payload } from 'payload'
import type { LanguageCode } from '../i18n/languages'
import type { Namespace } from './namespace'

/** What a page is rendered with: the visitor's language, and the namespace read as an anonymous visitor in it or another. */
export type Site = {
  payload: Payload
  /** What absolute URLs start with, as the namespace's own (`publicOrigin`). */
  origin: string
  language: LanguageCode
  ns: Namespace
  in(language: LanguageCode): Namespace
}

/** The path of a permalink the namespace wrote, to link within this site whatever the site URL setting says. */
export function pathOf(url: string): string {
  const parsed = new URL(url)
  return parsed.pathname + parsed.search
}
