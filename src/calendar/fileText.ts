import iconv from 'iconv-lite'

/**
 * An uploaded file's text, in the encoding its program saved it in. Spreadsheets seldom save
 * UTF-8 without being asked: Excel's "CSV" on Windows is Windows-1252, its "Unicode text" UTF-16
 * with a byte-order mark. Read as UTF-8, the first gave titles with U+FFFD where each accented
 * letter was, and the second no column at all. A byte-order mark names the encoding; without one,
 * bytes that are UTF-8 are read so, and others as Windows-1252 (Latin-1's letters at the same
 * bytes, and the euro sign and typographic quotes of the 0x80–0x9F range).
 */
export function fileText(bytes: Uint8Array): string {
  const [a, b, c] = bytes
  if (isUtf16(bytes)) return new TextDecoder(a === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes)
  if (a === 0xef && b === 0xbb && c === 0xbf) return new TextDecoder('utf-8').decode(bytes)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    // Node's TextDecoder reads `windows-1252` as Latin-1, whose 0x80–0x9F are control characters.
    return iconv.decode(Buffer.from(bytes), 'windows-1252')
  }
}

/** Whether `bytes` begin with a UTF-16 byte-order mark, either way round. */
export function isUtf16(bytes: Uint8Array): boolean {
  const [a, b] = bytes
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)
}
