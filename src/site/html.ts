import { escapeHtml } from '../calendar/escapeHtml'

/**
 * HTML written as text: every value put into a template is escaped unless it is already `Html`, so a
 * title cannot open a tag; the one way to put markup in unescaped is `trusted()`, for HTML the
 * namespace serves as HTML (an event's description, rendered from the editor's rich text).
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

type Part = Html | string | number | boolean | null | undefined | Part[]

function written(part: Part): string {
  if (part === null || part === undefined || part === false) return ''
  if (part instanceof Html) return part.text
  if (Array.isArray(part)) return part.map(written).join('')
  return escapeHtml(String(part))
}

/** A template whose values are escaped; `false`, `null` and `undefined` write nothing, arrays each of their items. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(
    strings.reduce(
      (text, string, index) =>
        text + string + (index < values.length ? written(values[index]!) : ''),
      '',
    ),
  )
}

export function trusted(markup: string): Html {
  return new Html(markup)
}

/**
 * A JSON-LD block: `<` is written as `\u003c` (still the same JSON), so no `</script>` nor `<!--` in a
 * title can end the element or change how the browser reads it.
 */
export function jsonLdScript(data: unknown): Html {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
  return new Html(`<script type="application/ld+json">${json}</script>`)
}
