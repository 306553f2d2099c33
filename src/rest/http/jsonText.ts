/**
 * JSON already written as text: what the serializers make (one pass from the stored rows to the
 * answer's text, without wire objects to build and then stringify) and what the pipeline sends as it
 * is. Anything that stringifies it gets the same JSON (`toJSON`), at the cost of a parse.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text)
  }
}

/** A value's JSON: written text as it is, anything else as `JSON.stringify` writes it (undefined for what it leaves out). */
export function jsonOf(value: unknown): string | undefined {
  // The answers' commonest values, without a call into JSON.stringify for each.
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
  }
  if (value === null) return 'null'
  return value instanceof JsonText ? value.text : JSON.stringify(value)
}

/** Keys as JSON with their colon, written once: the serializers' keys are a fixed few. */
const writtenKeys = new Map<string, string>()

function keyOf(key: string): string {
  let written = writtenKeys.get(key)
  if (written === undefined) {
    written = `${JSON.stringify(key)}:`
    writtenKeys.set(key, written)
  }
  return written
}

/** An array of values, each written by `jsonOf` (`null` where JSON.stringify writes one). */
export function jsonArray(values: readonly unknown[]): JsonText {
  let text = ''
  for (const value of values) text += (text ? ',' : '') + (jsonOf(value) ?? 'null')
  return new JsonText(`[${text}]`)
}

/**
 * An object's JSON written key by key, in the order given, as `JSON.stringify` writes an object with
 * those keys: a key whose value it leaves out (undefined) is left out. `omitEmpty` also leaves out
 * what venues and organizers omit (docs/api.md §3.3, §3.4): null, `''`, false, the author `"0"`, an
 * empty list.
 */
export class JsonObjectWriter {
  private text = ''

  /** A key and its value (written text spliced as it is). */
  add(key: string, value: unknown): this {
    const json = jsonOf(value)
    if (json !== undefined) this.text += (this.text ? ',' : '') + keyOf(key) + json
    return this
  }

  /** Every key of `fields` with its value, in their order; with `nonEmpty`, as `addNonEmpty`. */
  addAll(fields: Record<string, unknown>, nonEmpty = false): this {
    for (const [key, value] of Object.entries(fields))
      if (nonEmpty) this.addNonEmpty(key, value)
      else this.add(key, value)
    return this
  }

  /** A key and its value, unless the value is empty. */
  addNonEmpty(key: string, value: unknown): this {
    return isEmptyValue(value) ? this : this.add(key, value)
  }

  done(): JsonText {
    return new JsonText(`{${this.text}}`)
  }
}

/** What venues and organizers omit; a number 0 is a value (a coordinate on the equator). */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === false ||
    value === '0' ||
    (Array.isArray(value) && value.length === 0)
  )
}
