/**
 * Import cycles between the server's domains (`npm run lint:cycles`, after dpdm's file-level check).
 *
 * dpdm finds a cycle between two files; this finds one between two folders of concern, such as
 * checkout importing payments while payments imports checkout through other files. Each file
 * belongs to one node:
 *
 * - `src/server/modules/<name>/**` is the domain `<name>`, its tables included;
 * - every other file under `src/server/` (the database client, plugins, libraries, operations)
 *   is a node of its own: those folders hold tools, not a domain, and a cycle among their files
 *   alone is dpdm's to find;
 * - `src/client`, `src/shared` and `src/simulators` are one node each.
 *
 * Test files are consumers and are left out. Type-only imports count: a type that crosses
 * between two domains in both directions is the same tangle as a value that does.
 */
import { parseDependencyTree } from 'dpdm'

/**
 * Files that put the others together and that nothing but a start-up imports: their imports go
 * everywhere by design (the app, the schema that lists every table, the seed, the command lines).
 */
const COMPOSITION = [
  /\.test\.tsx?$/,
  /^src\/server\/(app|main)\.ts$/,
  /^src\/server\/db\/schema\.ts$/,
  /^src\/server\/db\/seed\//,
  /(^|\/|-)cli\.ts$/,
]

export function nodeOf(file: string): string | null {
  if (COMPOSITION.some((pattern) => pattern.test(file))) return null
  let m = /^src\/server\/modules\/([^/]+)\//.exec(file)
  if (m) return m[1]!
  if (file.startsWith('src/server/')) return file.replace(/^src\//, '').replace(/\.tsx?$/, '')
  m = /^src\/(client|shared|simulators)\//.exec(file)
  if (m) return m[1]!
  return null
}

/** Strongly connected components of more than one node (Tarjan). */
export function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0
  const stack: string[] = []
  const on = new Set<string>()
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const out: string[][] = []
  const visit = (v: string): void => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) out.push(component.sort())
    }
  }
  for (const v of edges.keys()) if (!idx.has(v)) visit(v)
  return out
}

async function main(): Promise<void> {
  const tree = await parseDependencyTree(['src/**/*.ts', 'src/**/*.tsx'], {
    transform: false,
    skipDynamicImports: true,
  })
  const edges = new Map<string, Set<string>>()
  const example = new Map<string, string>()
  for (const [file, deps] of Object.entries(tree)) {
    const from = nodeOf(file)
    if (!from || !deps) continue
    for (const dep of deps) {
      const to = dep.id ? nodeOf(dep.id) : null
      if (!to || to === from) continue
      if (!edges.has(from)) edges.set(from, new Set())
      edges.get(from)!.add(to)
      if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, `${file} -> ${dep.id}`)
    }
  }
  const found = cycles(edges)
  if (found.length === 0) {
    console.log(`No import cycle between ${edges.size} domains.`)
    return
  }
  for (const component of found) {
    console.log(`Domains importing each other: ${component.join(', ')}`)
    for (const a of component)
      for (const b of component) {
        const why = example.get(`${a} ${b}`)
        if (why) console.log(`  ${a} -> ${b}: ${why}`)
      }
  }
  process.exitCode = 1
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
