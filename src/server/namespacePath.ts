import { isLanguageCode } from '../i18n/languages'
import { DEFAULT_NAMESPACE } from '../options'

/** Where the production server serves the namespace, as the front door and the gate take it. */
export const NAMESPACE_ROOT = `/api/${DEFAULT_NAMESPACE}`

/** The namespace, at the root or under a language (`/fr/api/cal/events/v1/...`). */
export function inNamespace(path: string, root: string): boolean {
  const at = (prefix: string) =>
    path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)
  if (at(root)) return true
  const language = /^\/([^/]+)(\/.*)$/.exec(path)
  return Boolean(language && isLanguageCode(language[1]) && at(`/${language[1]}${root}`))
}
