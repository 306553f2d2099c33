import type { PayloadRequest } from 'payload'
import type { LanguageCode } from '../i18n/languages'

/**
 * What a query reads with: Payload's request (its user and transaction), the language of localized
 * text, and the content revision that values derived from the content are kept under (undefined for
 * a write's reads, which are computed afresh).
 */
export type ReadScope = {
  req: PayloadRequest
  language: LanguageCode
  revision: string | undefined
}
