import type { Field } from 'payload'
import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import { renderDescriptionHtml } from './descriptionHtml'

/**
 * Rich text for editors plus its HTML rendering, kept per language at save time so that readers
 * (the namespace serves HTML, as upstream) never pay for the conversion.
 */
export function descriptionFields(): Field[] {
  return [
    {
      name: 'description',
      type: 'richText',
      localized: true,
    },
    {
      name: 'descriptionHtml',
      type: 'textarea',
      localized: true,
      admin: { hidden: true },
      hooks: {
        beforeChange: [
          ({ siblingData }) =>
            renderDescriptionHtml(
              siblingData.description as SerializedEditorState | null | undefined,
            ),
        ],
      },
    },
  ]
}
