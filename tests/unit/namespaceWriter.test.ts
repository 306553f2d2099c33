/**
 * A write through the namespace is the caller's, never the system's: `Writer.system` (Payload's access
 * not asked) is for the imports alone (src/operations/writer.ts). Checked with the type checker at
 * every call in the namespace door that hands a Writer to an operation.
 */
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { sourceFiles } from '../support/sourceFiles'

const repository = path.resolve(import.meta.dirname, '..', '..')
const writerModule = path.join(repository, 'src', 'operations', 'writer.ts')

function program(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(repository, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!
  return ts.createProgram(sourceFiles(path.join(repository, 'src', 'rest')), config.options)
}

/** The Writer arguments of the namespace's calls: where, and whether their type may carry `system`. */
function writerArguments(checker: ts.TypeChecker, file: ts.SourceFile) {
  const found: { at: string; system: boolean }[] = []
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const signature = checker.getResolvedSignature(node)
      signature?.getParameters().forEach((parameter, index) => {
        const declared = parameter.valueDeclaration
        const argument = node.arguments[index]
        if (!declared || !argument || !ts.isParameter(declared) || !declared.type) return
        if (!ts.isTypeReferenceNode(declared.type)) return
        const named = checker.getSymbolAtLocation(declared.type.typeName)
        const symbol =
          named && named.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(named) : named
        const declaration = symbol?.declarations?.[0]
        if (declaration?.getSourceFile().fileName !== writerModule) return
        const { line } = file.getLineAndCharacterOfPosition(argument.getStart())
        found.push({
          at: `${path.relative(repository, file.fileName)}:${line + 1}`,
          system: checker.getTypeAtLocation(argument).getProperty('system') !== undefined,
        })
      })
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

describe('the namespace writer', () => {
  it('never carries system: every Writer the namespace hands an operation is the caller', () => {
    const built = program()
    const checker = built.getTypeChecker()
    const calls = built
      .getSourceFiles()
      .filter((file) => file.fileName.startsWith(path.join(repository, 'src', 'rest')))
      .flatMap((file) => writerArguments(checker, file))
    // The namespace's creates, updates and trashes of events, venues, organizers and terms.
    expect(calls.length).toBeGreaterThanOrEqual(6)
    expect(calls.filter((call) => call.system)).toEqual([])
  }, 180_000)
})
