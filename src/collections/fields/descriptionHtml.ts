import {
  NodeFormat,
  type DefaultNodeTypes,
  type SerializedListItemNode,
  type SerializedListNode,
  type SerializedTextNode,
} from '@payloadcms/richtext-lexical'
import {
  convertLexicalToHTML,
  type HTMLConverter,
  type HTMLConverters,
} from '@payloadcms/richtext-lexical/html'
import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'

/**
 * The HTML a description serves: the markup an author writes (`<ul><li>`, `<u>`, `<ol start="3">`), with a
 * line between blocks, as WordPress serves its content. Payload's default converters render the editor's
 * own markup instead: `class="list-bullet"`, `<li class="" style="" value="1">`, underline as a styled span,
 * and every block on one line.
 */
export function renderDescriptionHtml(state: SerializedEditorState | null | undefined): string {
  if (!state?.root) return ''
  return convertLexicalToHTML({
    data: state,
    disableContainer: true,
    converters: ({ defaultConverters }) => descriptionConverters(defaultConverters),
  }).trim()
}

const TAG_FORMATS = [
  [NodeFormat.IS_UNDERLINE, 'u'],
  [NodeFormat.IS_STRIKETHROUGH, 's'],
] as const

type Converters = HTMLConverters<DefaultNodeTypes>

function descriptionConverters(defaults: Converters): Converters {
  const defaultText = defaults.text as Exclude<HTMLConverter<SerializedTextNode>, string>
  return {
    ...defaults,
    paragraph: block(defaults.paragraph!),
    heading: block(defaults.heading!),
    quote: block(defaults.quote!),
    horizontalrule: block(defaults.horizontalrule!),
    upload: block(defaults.upload!),
    // A link to another record of the admin, which no reader can follow: Payload wrote "unknown node".
    relationship: () => '',
    text: (args) => {
      const format = args.node.format
      const tags = TAG_FORMATS.filter(([bit]) => format & bit)
      const rest = tags.reduce((bits, [bit]) => bits & ~bit, format)
      const inner = defaultText({ ...args, node: { ...args.node, format: rest } })
      return tags.reduce((html, [, tag]) => `<${tag}>${html}</${tag}>`, inner)
    },
    list: block<SerializedListNode>(({ node, nodesToHTML, providedStyleTag }) => {
      const tag = node.tag === 'ol' ? 'ol' : 'ul'
      const start = tag === 'ol' && node.start > 1 ? ` start="${Number(node.start)}"` : ''
      const items: string[] = []
      for (const item of node.children as SerializedListItemNode[]) {
        const content = nodesToHTML({ nodes: item.children, parent: { ...item, parent: node } })
          .join('')
          .trimEnd()
        // The editor holds a nested list as an item of its own after the item it belongs to.
        const nestedOnly =
          item.children.length > 0 && item.children.every((child) => child.type === 'list')
        if (nestedOnly && items.length > 0) items[items.length - 1] += content
        else
          items.push(
            node.listType === 'check' ? `${checkbox(Boolean(item.checked))}${content}` : content,
          )
      }
      return `<${tag}${providedStyleTag}${start}>\n${items.map((content) => `<li>${content}</li>`).join('\n')}\n</${tag}>`
    }),
  }
}

/** A block element ends its line; one that renders nothing (an upload not yet resolved) leaves no line. */
function block<T extends { type?: string }>(converter: HTMLConverter<T>): HTMLConverter<T> {
  return (args) => {
    const html = typeof converter === 'string' ? converter : converter(args)
    return html ? `${html}\n` : ''
  }
}

function checkbox(checked: boolean): string {
  return `<input type="checkbox" disabled${checked ? ' checked' : ''} /> `
}
