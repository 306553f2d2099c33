import { convertHTMLToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import { JSDOM } from 'jsdom'
import type { SanitizedConfig } from 'payload'

type EditorConfig = Awaited<ReturnType<typeof editorConfigFactory.default>>

let editorConfig: Promise<EditorConfig> | undefined

/**
 * HTML sent to the namespace becomes the admin's rich text; the HTML served back is rendered from
 * it, so markup the editor cannot hold (scripts, handlers) never reaches readers.
 */
export async function htmlToRichText(config: SanitizedConfig, html: string) {
  editorConfig ??= editorConfigFactory.default({ config })
  return convertHTMLToLexical({ editorConfig: await editorConfig, html, JSDOM })
}
