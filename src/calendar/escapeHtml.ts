const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Text as HTML, in an element or a quoted attribute: what could open markup or end the attribute
 * becomes an entity. The public pages and the widget write with it; the namespace writes upstream's
 * own entities (`rest/serialize/common.ts`).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!)
}
