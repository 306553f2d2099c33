/**
 * JSON already written: what the serializers make (one pass from the stored rows to the answer's
 * bytes, without wire objects to build and then stringify) and what the pipeline sends as it is.
 * Anything that stringifies it gets the same JSON (`toJSON`), at the cost of a parse.
 *
 * Written as UTF-8 bytes rather than joined strings: a string joined for every key and value, then
 * the whole made flat and encoded to be sent, cost each event of a made list a quarter more CPU than
 * this, most of it the garbage collector's (docs/performance.md, "What a made list costs"). Bytes
 * under 4 KB may be a slice of Node's shared pool: what keeps them copies them first (`ownedBytes`).
 */
export class JsonText {
  private textForm: string | undefined
  private bytesForm: Buffer | undefined

  /** JSON as text, or as its UTF-8 bytes. */
  constructor(written: string | Buffer) {
    if (typeof written === 'string') this.textForm = written
    else this.bytesForm = written
  }

  get text(): string {
    return (this.textForm ??= this.bytesForm!.toString('utf8'))
  }

  get bytes(): Buffer {
    return (this.bytesForm ??= Buffer.from(this.textForm!, 'utf8'))
  }

  toJSON(): unknown {
    return JSON.parse(this.text)
  }
}

/** A value's JSON: written text as it is, anything else as `JSON.stringify` writes it (undefined for what it leaves out). */
export function jsonOf(value: unknown): string | undefined {
  return value instanceof JsonText ? value.text : JSON.stringify(value)
}

/**
 * Buffers the writers write into, given back when a writer is done: a writer copies out only what it
 * wrote. Writers are synchronous, so a few serve the process; one that grew past the cap (a very long
 * list) is let go rather than kept.
 */
const spareBuffers: Buffer[] = []
// A page, an event and what the event embeds are written at once, at most.
const SPARE_BUFFERS = 4
const FIRST_SIZE = 16 * 1024
const LARGEST_KEPT = 512 * 1024

/** Keys as JSON with their colon, encoded once: the serializers' keys are a fixed few. */
const encodedKeys = new Map<string, Buffer>()

function keyBytes(key: string): Buffer {
  let encoded = encodedKeys.get(key)
  if (encoded === undefined) {
    encoded = Buffer.from(`${JSON.stringify(key)}:`, 'utf8')
    encodedKeys.set(key, encoded)
  }
  return encoded
}

const HEX = '0123456789abcdef'
/** The short escapes `JSON.stringify` writes; other control characters are `\u00xx`. */
const SHORT_ESCAPES: Record<number, number> = {
  0x08: 0x62,
  0x09: 0x74,
  0x0a: 0x6e,
  0x0c: 0x66,
  0x0d: 0x72,
  0x22: 0x22,
  0x5c: 0x5c,
}

/** Writes JSON values as UTF-8 into a growing buffer. */
class ByteWriter {
  protected buffer = spareBuffers.pop() ?? Buffer.allocUnsafeSlow(FIRST_SIZE)
  protected at = 0

  protected room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return
    // Its buffer is another writer's once it is done.
    if (this.buffer === NO_BYTES) throw new Error('this JSON writer is done: write with a new one')
    let size = Math.max(FIRST_SIZE, this.buffer.length * 2)
    while (size < this.at + bytes) size *= 2
    const bigger = Buffer.allocUnsafeSlow(size)
    this.buffer.copy(bigger, 0, 0, this.at)
    this.buffer = bigger
  }

  protected byte(value: number): void {
    this.room(1)
    this.buffer[this.at++] = value
  }

  protected raw(bytes: Uint8Array): void {
    this.room(bytes.length)
    this.buffer.set(bytes, this.at)
    this.at += bytes.length
  }

  /**
   * Text as UTF-8, JSON-escaped as `JSON.stringify` escapes a string when `quoted`: `"`, `\` and
   * control characters, lone surrogates as `\udxxx` (text from `JSON.stringify` itself has none left).
   */
  protected text(text: string, quoted: boolean): void {
    // At most 6 bytes a UTF-16 unit escaped (`\u001f`, a lone surrogate), and the quotes.
    this.room(text.length * 6 + 2)
    const buffer = this.buffer
    let at = this.at
    if (quoted) buffer[at++] = 0x22
    for (let index = 0; index < text.length; index++) {
      const unit = text.charCodeAt(index)
      if (unit < 0x80) {
        if (quoted && (unit < 0x20 || unit === 0x22 || unit === 0x5c)) {
          buffer[at++] = 0x5c
          const short = SHORT_ESCAPES[unit]
          if (short !== undefined) buffer[at++] = short
          else {
            buffer[at++] = 0x75
            at = escapedUnit(buffer, at, unit)
          }
        } else buffer[at++] = unit
      } else if (unit < 0x800) {
        buffer[at++] = 0xc0 | (unit >> 6)
        buffer[at++] = 0x80 | (unit & 0x3f)
      } else if (unit >= 0xd800 && unit <= 0xdfff) {
        const next = text.charCodeAt(index + 1)
        if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const point = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00)
          buffer[at++] = 0xf0 | (point >> 18)
          buffer[at++] = 0x80 | ((point >> 12) & 0x3f)
          buffer[at++] = 0x80 | ((point >> 6) & 0x3f)
          buffer[at++] = 0x80 | (point & 0x3f)
          index++
        } else {
          buffer[at++] = 0x5c
          buffer[at++] = 0x75
          at = escapedUnit(buffer, at, unit)
        }
      } else {
        buffer[at++] = 0xe0 | (unit >> 12)
        buffer[at++] = 0x80 | ((unit >> 6) & 0x3f)
        buffer[at++] = 0x80 | (unit & 0x3f)
      }
    }
    if (quoted) buffer[at++] = 0x22
    this.at = at
  }

  /** A value as `JSON.stringify` writes it; false for what it leaves out (undefined, a function). */
  protected value(value: unknown): boolean {
    switch (typeof value) {
      case 'string':
        this.text(value, true)
        return true
      case 'boolean':
        this.raw(value ? TRUE : FALSE)
        return true
      case 'number':
        this.text(Number.isFinite(value) ? String(value) : 'null', false)
        return true
    }
    if (value === null) {
      this.raw(NULL)
      return true
    }
    if (value instanceof JsonText) {
      this.raw(value.bytes)
      return true
    }
    const json = JSON.stringify(value)
    if (json === undefined) return false
    this.text(json, false)
    return true
  }

  /** What was written, copied out of the buffer, which goes back to the spares. */
  protected written(): JsonText {
    if (this.buffer === NO_BYTES) throw new Error('this JSON writer is done already')
    const bytes = Buffer.allocUnsafe(this.at)
    this.buffer.copy(bytes, 0, 0, this.at)
    if (spareBuffers.length < SPARE_BUFFERS && this.buffer.length <= LARGEST_KEPT)
      spareBuffers.push(this.buffer)
    this.buffer = NO_BYTES
    return new JsonText(bytes)
  }
}

/** `\u` is written by the caller; the unit's four lowercase hex digits, as `JSON.stringify` writes them. */
function escapedUnit(buffer: Buffer, at: number, unit: number): number {
  buffer[at] = HEX.charCodeAt((unit >> 12) & 0xf)
  buffer[at + 1] = HEX.charCodeAt((unit >> 8) & 0xf)
  buffer[at + 2] = HEX.charCodeAt((unit >> 4) & 0xf)
  buffer[at + 3] = HEX.charCodeAt(unit & 0xf)
  return at + 4
}

const NO_BYTES = Buffer.alloc(0)
const TRUE = Buffer.from('true')
const FALSE = Buffer.from('false')
const NULL = Buffer.from('null')

class ArrayWriter extends ByteWriter {
  write(values: readonly unknown[]): JsonText {
    this.byte(0x5b)
    // By index, not `forEach`: a hole is `null`, as JSON.stringify writes it.
    for (let index = 0; index < values.length; index++) {
      if (index) this.byte(0x2c)
      if (!this.value(values[index])) this.raw(NULL)
    }
    this.byte(0x5d)
    return this.written()
  }
}

/** An array of values, each written as `JSON.stringify` writes it in an array (`null` for what it leaves out). */
export function jsonArray(values: readonly unknown[]): JsonText {
  return new ArrayWriter().write(values)
}

/**
 * An object's JSON written key by key, in the order given, as `JSON.stringify` writes an object with
 * those keys: a key whose value it leaves out (undefined) is left out. `omitEmpty` also leaves out
 * what venues and organizers omit (docs/api.md §3.3, §3.4): null, `''`, false, the author `"0"`, an
 * empty list.
 */
export class JsonObjectWriter extends ByteWriter {
  constructor() {
    super()
    this.byte(0x7b)
  }

  /** A key and its value (written text spliced as it is). */
  add(key: string, value: unknown): this {
    const before = this.at
    if (before > 1) this.byte(0x2c)
    this.raw(keyBytes(key))
    // A value JSON.stringify leaves out takes its key with it.
    if (!this.value(value)) this.at = before
    return this
  }

  /** Every key of `fields` with its value, in their order; with `nonEmpty`, as `addNonEmpty`. */
  addAll(fields: Record<string, unknown>, nonEmpty = false): this {
    for (const key in fields)
      if (Object.hasOwn(fields, key))
        if (nonEmpty) this.addNonEmpty(key, fields[key])
        else this.add(key, fields[key])
    return this
  }

  /** A key and its value, unless the value is empty. */
  addNonEmpty(key: string, value: unknown): this {
    return isEmptyValue(value) ? this : this.add(key, value)
  }

  done(): JsonText {
    this.byte(0x7d)
    return this.written()
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
