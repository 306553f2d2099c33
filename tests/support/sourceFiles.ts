import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * The TypeScript sources below `folder`, but those below a folder `skip` names. Dot folders hold data
 * (bench/.datasets, bench/.profiles), not sources.
 */
export function sourceFiles(
  folder: string,
  skip: (folder: string) => boolean = () => false,
): string[] {
  return readdirSync(folder).flatMap((name) => {
    if (name.startsWith('.')) return []
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return skip(full) ? [] : sourceFiles(full, skip)
    return /\.tsx?$/.test(name) ? [full] : []
  })
}
