/**
 * No source file over 600 lines (`npm run lint`): a file that long holds more than one thing a
 * newcomer has to keep in mind at once. Code, tests and scripts count alike; generated files
 * (migrations' snapshots) are not TypeScript and are not read here.
 */
import { globSync, readFileSync } from 'node:fs'

export const MAX_LINES = 600

export function linesOf(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length
}

function main(): void {
  const files = globSync('{src,scripts,tests}/**/*.{ts,tsx,js,cjs}').sort()
  const over = files
    .map((file) => ({ file, lines: linesOf(readFileSync(file, 'utf8')) }))
    .filter((f) => f.lines > MAX_LINES)
  for (const f of over) console.log(`${f.file}: ${f.lines} lines (at most ${MAX_LINES})`)
  if (over.length) process.exitCode = 1
  else console.log(`No source file over ${MAX_LINES} lines (${files.length} files).`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
