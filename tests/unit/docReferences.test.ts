/**
 * What the code, the tests, the tools and the docs cite stays true: every document they name is in
 * the repository, every section they cite (`docs/api.md §4.2`, or a bare section sign inside api.md itself,
 * `docs/operations.md, "Request ids"`) is a heading of that document, and nothing points a reader at
 * an issue number, which the repository does not hold.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const repository = path.resolve(import.meta.dirname, '..', '..')

function texts(folder: string): string[] {
  // Dot folders hold data (bench/.datasets, bench/.profiles); JSON and SQL cite nothing.
  return readdirSync(folder).flatMap((name) => {
    if (name.startsWith('.')) return []
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return texts(full)
    return /\.(tsx?|mjs|md)$/.test(name) ? [full] : []
  })
}

const FILES = [
  ...['src', 'tests', 'scripts', 'bench', 'docs'].flatMap((folder) =>
    texts(path.join(repository, folder)),
  ),
  path.join(repository, 'README.md'),
]

/** A document a text names: `docs/api.md`, `bench/results/2026-11-28.md`, or a bare `api.md`. */
const DOCUMENT = /(?<![\w.-])((?:\.\.\/|\/)?(?:[\w-]+\/)*[\w.-]+\.md)\b/g
/** The sections cited right after a document's name: `docs/api.md §4, §4.2 and §12`. */
const SECTIONS = /^[`)\]]*[,:]?(?:\s*(?:,|;|and|or)?\s*§\s?\d+(?:\.\d+)*)+/
/** A heading cited right after a document's name: `, "Request ids"` or `("Overload")`. */
const HEADING = /^[`)\]]*,?\s*\(?["“]([^"”\n]+)["”]/
const SECTION = /§\s?(\d+(?:\.\d+)*)/g
/** A section of a standard (`RFC 9110 §9.3.2`), not of ours. */
const STANDARD = /RFC \d+ $/

/** The repository's path of a document named in `file`: a bare name is one of docs/, README or CHANGELOG. */
function documentPath(name: string): string {
  if (name.includes('/')) return name
  return ['README.md', 'CHANGELOG.md'].includes(name) ? name : `docs/${name}`
}

type Citation = {
  file: string
  line: number
  document: string
  sections: string[]
  headings: string[]
}

/** Every document, section and heading a text cites; a bare `§` inside a document cites that document. */
function citationsOf(file: string, text: string): { citations: Citation[]; unnamed: string[] } {
  const relative = path.relative(repository, file)
  const lineAt = (index: number) => text.slice(0, index).split('\n').length
  const named = new Set<number>()
  const citations: Citation[] = []
  for (const match of text.matchAll(DOCUMENT)) {
    const after = text.slice(match.index + match[0].length)
    const sections = SECTIONS.exec(after)?.[0] ?? ''
    for (const section of sections.matchAll(SECTION))
      named.add(match.index + match[0].length + section.index)
    citations.push({
      file: relative,
      line: lineAt(match.index),
      document: documentPath(match[1]!),
      sections: [...sections.matchAll(SECTION)].map((section) => section[1]!),
      headings: sections ? [] : [HEADING.exec(after)?.[1]].filter((name) => name !== undefined),
    })
  }
  const unnamed: string[] = []
  for (const section of text.matchAll(SECTION)) {
    if (named.has(section.index) || STANDARD.test(text.slice(0, section.index))) continue
    if (relative.startsWith('docs/') && relative.endsWith('.md'))
      citations.push({
        file: relative,
        line: lineAt(section.index),
        document: relative,
        sections: [section[1]!],
        headings: [],
      })
    else unnamed.push(`${relative}:${lineAt(section.index)}: ${section[0]}`)
  }
  return { citations, unnamed }
}

const headings = new Map<string, string[]>()

function headingsOf(document: string): string[] {
  const known = headings.get(document)
  if (known) return known
  const read = readFileSync(path.join(repository, document), 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, ''))
  headings.set(document, read)
  return read
}

/** A numbered heading's number: `## 4. The event list` is 4, `### 4.2 The date window` 4.2. */
const numberOf = (heading: string) => /^(\d+(?:\.\d+)*)\.?\s/.exec(heading)?.[1]

const scanned = FILES.map((file) => citationsOf(file, readFileSync(file, 'utf8')))
const citations = scanned.flatMap((found) => found.citations)
const where = (citation: Citation) => `${citation.file}:${citation.line}: ${citation.document}`

describe('references to the docs', () => {
  it('read the shapes the texts cite in', () => {
    const text = [
      'Lists (docs/api.md §4, §4.2 and §12); the answer, api.md §4.5.',
      'Request ids (docs/operations.md, "Request ids"), HEAD (RFC 9110 §9.3.2).',
    ].join('\n')
    const found = citationsOf(path.join(repository, 'src', 'sample.ts'), text)
    expect(
      found.citations.map(({ document, sections, headings }) => [document, sections, headings]),
    ).toEqual([
      ['docs/api.md', ['4', '4.2', '12'], []],
      ['docs/api.md', ['4.5'], []],
      ['docs/operations.md', [], ['Request ids']],
    ])
    expect(found.unnamed).toEqual([])
  })

  it('name documents of the repository', () => {
    const missing = citations
      .filter(({ document }) => document.startsWith('/') || document.startsWith('..'))
      .concat(citations.filter(({ document }) => !existsSync(path.join(repository, document))))
      .map(where)
    expect(missing).toEqual([])
  })

  it('cite sections that exist', () => {
    const stale = citations.flatMap((citation) => {
      if (!existsSync(path.join(repository, citation.document))) return []
      const titles = headingsOf(citation.document)
      const numbers = new Set(titles.map(numberOf))
      return [
        ...citation.sections
          .filter((section) => !numbers.has(section))
          .map((section) => `${where(citation)} §${section}`),
        ...citation.headings
          .filter((name) => !titles.some((title) => title.includes(name)))
          .map((name) => `${where(citation)} "${name}"`),
      ]
    })
    expect(stale).toEqual([])
  })

  it('name the document of every section outside the docs', () => {
    expect(scanned.flatMap((found) => found.unnamed)).toEqual([])
  })

  it('name no issue numbers', () => {
    const issues = FILES.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bissues?\s*(?:#|\/)?\s*\d+/gi)].map(
        (match) => `${path.relative(repository, file)}: ${match[0]}`,
      ),
    )
    expect(issues).toEqual([])
  })
})
