/**
 * Each rule of checkout-rules.ts is the one the page and the server run (issue 30 item 4): for
 * every exported rule, a file under src/client/ and a file under src/server/ use that very
 * definition, and no other file declares a function, class or constant of the same name.
 *
 * "Use" follows the import statements (TypeScript's parser, type-only imports included): a file
 * uses a name it imports from checkout-rules.ts, or from a shared module that re-exports it, or
 * that a shared definition it imports refers to (the zod schema in checkout.ts refers to
 * PO_NUMBER_MAX, so the server's order form and the page's form both use it).
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const RULES = 'src/shared/checkout-rules.ts'

/**
 * Rules only the server runs, each with the reason the page has no use for it. The test fails if
 * the page starts using one (then it belongs with the others) or the server stops.
 */
const SERVER_ONLY: Record<string, string> = {
  zoneFor: 'the page never sees delivery zones: the server prices delivery with them',
  deliveryCountries: 'the page receives the delivery countries already chosen, as its props',
  MAX_BASKET_TOTAL_MINOR: 'the page never totals a basket: the server refuses one too large',
  MAX_LINES_PER_REQUEST: 'the page sends one line or the basket’s own lines; the request schema bounds them',
  distinctPromotionCodes: 'the page sends the one code typed; the server reads the list a request sends',
  tooManyPromotionCodes: 'the page offers only Remove while a code is applied (MAX_PROMOTION_CODES)',
  promotionCodesInForce: 'the page shows the codes the server answers: already the ones in force',
}

type Ref = { file: string; name: string }
interface Module {
  /** Local binding → what it imports ('*' for a namespace import). */
  imports: Map<string, Ref>
  /** Exported name → where it comes from, for `export { a } from`, `export { a }` of an import. */
  reexports: Map<string, Ref>
  starExports: string[]
  /** Names declared at the top level → the identifiers their declaration mentions. */
  declared: Map<string, Set<string>>
  exported: Set<string>
  /** Every function, class and variable declared anywhere in the file. */
  declaredAnywhere: Set<string>
}

function resolveSpecifier(from: string, spec: string, files: ReadonlyMap<string, string>): string | null {
  if (!spec.startsWith('.')) return null
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec))
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (files.has(candidate)) return candidate
  return null
}

function mentions(node: ts.Node): Set<string> {
  const out = new Set<string>()
  const visit = (n: ts.Node) => {
    if (ts.isIdentifier(n)) out.add(n.text)
    n.forEachChild(visit)
  }
  visit(node)
  return out
}

function parseModule(file: string, text: string, files: ReadonlyMap<string, string>): Module {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const m: Module = {
    imports: new Map(),
    reexports: new Map(),
    starExports: [],
    declared: new Map(),
    exported: new Set(),
    declaredAnywhere: new Set(),
  }
  const isExported = (s: ts.Node) =>
    ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((x) => x.kind === ts.SyntaxKind.ExportKeyword)
  const localExports: [string, string][] = []
  for (const s of source.statements) {
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier)) {
      const target = resolveSpecifier(file, s.moduleSpecifier.text, files)
      const bindings = s.importClause?.namedBindings
      if (!target || !bindings) continue
      if (ts.isNamespaceImport(bindings)) m.imports.set(bindings.name.text, { file: target, name: '*' })
      else
        for (const e of bindings.elements)
          m.imports.set(e.name.text, { file: target, name: (e.propertyName ?? e.name).text })
    } else if (ts.isExportDeclaration(s)) {
      const target =
        s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)
          ? resolveSpecifier(file, s.moduleSpecifier.text, files)
          : null
      if (s.moduleSpecifier && !target) continue
      if (!s.exportClause) {
        if (target) m.starExports.push(target)
      } else if (ts.isNamedExports(s.exportClause)) {
        for (const e of s.exportClause.elements) {
          const from = (e.propertyName ?? e.name).text
          if (target) m.reexports.set(e.name.text, { file: target, name: from })
          else localExports.push([e.name.text, from])
        }
      }
    } else if (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) {
      if (!s.name) continue
      m.declared.set(s.name.text, mentions(s))
      if (isExported(s)) m.exported.add(s.name.text)
    } else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue
        m.declared.set(d.name.text, mentions(d))
        if (isExported(s)) m.exported.add(d.name.text)
      }
    }
  }
  for (const [exportedAs, local] of localExports) {
    const imported = m.imports.get(local)
    if (imported) m.reexports.set(exportedAs, imported)
    else if (m.declared.has(local)) m.exported.add(exportedAs)
  }
  const visit = (n: ts.Node) => {
    if (
      (ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) || ts.isVariableDeclaration(n)) &&
      n.name &&
      ts.isIdentifier(n.name)
    )
      m.declaredAnywhere.add(n.name.text)
    n.forEachChild(visit)
  }
  visit(source)
  return m
}

/** What the checker finds in a set of files (path relative to the repository → source text). */
function checkRules(files: ReadonlyMap<string, string>, serverOnly: Record<string, string> = {}) {
  const modules = new Map<string, Module>()
  for (const [file, text] of files) modules.set(file, parseModule(file, text, files))
  const rules = [...(modules.get(RULES)?.exported ?? [])].sort()

  /** The definition a name exported by a file stands for, following re-exports. */
  const definition = (ref: Ref, seen = new Set<string>()): Ref | null => {
    const key = `${ref.file}#${ref.name}`
    const m = modules.get(ref.file)
    if (!m || seen.has(key)) return null
    seen.add(key)
    if (m.declared.has(ref.name)) return ref
    const re = m.reexports.get(ref.name)
    if (re) return definition(re, seen)
    for (const star of m.starExports) {
      const found = definition({ file: star, name: ref.name }, seen)
      if (found) return found
    }
    return null
  }

  /** Every definition a file runs through its imports, and the definitions those refer to. */
  const used = (file: string): Set<string> => {
    const out = new Set<string>()
    const queue: Ref[] = []
    const take = (ref: Ref) => {
      if (ref.name === '*') {
        for (const name of modules.get(ref.file)?.exported ?? []) take({ file: ref.file, name })
        return
      }
      const def = definition(ref)
      if (!def || out.has(`${def.file}#${def.name}`)) return
      out.add(`${def.file}#${def.name}`)
      queue.push(def)
    }
    for (const ref of modules.get(file)!.imports.values()) if (ref.file.startsWith('src/shared/')) take(ref)
    while (queue.length) {
      const def = queue.pop()!
      const m = modules.get(def.file)!
      if (!def.file.startsWith('src/shared/')) continue
      for (const id of m.declared.get(def.name) ?? []) {
        if (id === def.name) continue
        if (m.declared.has(id)) take({ file: def.file, name: id })
        else if (m.imports.has(id)) take(m.imports.get(id)!)
      }
    }
    return out
  }

  const users = new Map<string, { client: string[]; server: string[] }>(
    rules.map((r) => [r, { client: [], server: [] }]),
  )
  const redeclared: string[] = []
  for (const [file, m] of modules) {
    if (/\.test\.tsx?$/.test(file) || file === RULES) continue
    for (const r of rules) if (m.declaredAnywhere.has(r)) redeclared.push(`${file} declares ${r}`)
    const side = file.startsWith('src/client/') ? 'client' : file.startsWith('src/server/') ? 'server' : null
    if (!side) continue
    for (const key of used(file)) {
      const [defFile, name] = key.split('#') as [string, string]
      if (defFile === RULES) users.get(name)?.[side].push(file)
    }
  }
  const problems: string[] = [...redeclared]
  for (const [rule, u] of users) {
    if (u.server.length === 0) problems.push(`${rule}: no file under src/server/ uses it`)
    if (rule in serverOnly) {
      if (u.client.length > 0) problems.push(`${rule}: listed as server-only but the page uses it`)
    } else if (u.client.length === 0) problems.push(`${rule}: no file under src/client/ uses it`)
  }
  for (const name of Object.keys(serverOnly))
    if (!users.has(name)) problems.push(`${name}: listed as server-only but not a rule`)
  return { rules, users, problems }
}

function sourceFiles(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.posix.join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(p, out)
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.set(p, readFileSync(p, 'utf8'))
  }
  return out
}

/** A small shop for the checker's own cases: one rule, a schema, a page and a service. */
const fixture = (over: Record<string, string> = {}) =>
  new Map(
    Object.entries({
      [RULES]: `export const PO_NUMBER_MAX = 50\nexport function defaultPoNumber(c: { a: string }) { return c.a.slice(0, PO_NUMBER_MAX) }\n`,
      'src/shared/checkout.ts': `import { PO_NUMBER_MAX } from './checkout-rules.ts'\nexport const schema = { max: PO_NUMBER_MAX }\n`,
      'src/shared/cart.ts': `export { defaultPoNumber } from './checkout-rules.ts'\n`,
      'src/client/pages/Checkout.tsx': `import { schema } from '../../shared/checkout.ts'\nimport { defaultPoNumber } from '../../shared/cart.ts'\nexport const page = [schema, defaultPoNumber]\n`,
      'src/server/modules/orders/place.ts': `import { schema } from '../../../shared/checkout.ts'\nimport { defaultPoNumber } from '../../../shared/checkout-rules.ts'\nexport const place = [schema, defaultPoNumber]\n`,
      ...over,
    }),
  )

describe('the checker of checkout-rules.ts', () => {
  it('accepts rules that the page and the server both use, through schemas and re-exports too', () => {
    const { rules, problems, users } = checkRules(fixture())
    expect(rules).toEqual(['PO_NUMBER_MAX', 'defaultPoNumber'])
    expect(problems).toEqual([])
    expect(users.get('PO_NUMBER_MAX')).toEqual({
      client: ['src/client/pages/Checkout.tsx'],
      server: ['src/server/modules/orders/place.ts'],
    })
  })

  it('finds a rule the page declares again instead of importing', () => {
    const { problems } = checkRules(
      fixture({
        'src/client/pages/Checkout.tsx': `import { schema } from '../../shared/checkout.ts'\nexport const PO_NUMBER_MAX = 50\nconst defaultPoNumber = (c: { a: string }) => c.a\nexport const page = [schema, defaultPoNumber]\n`,
      }),
    )
    expect(problems).toContain('src/client/pages/Checkout.tsx declares PO_NUMBER_MAX')
    expect(problems).toContain('src/client/pages/Checkout.tsx declares defaultPoNumber')
    expect(problems).toContain('defaultPoNumber: no file under src/client/ uses it')
  })

  it('finds a rule the server declares again, even inside a function', () => {
    const { problems } = checkRules(
      fixture({
        'src/server/modules/orders/place.ts': `import { schema } from '../../../shared/checkout.ts'\nexport function place() { const PO_NUMBER_MAX = 100; return [schema, PO_NUMBER_MAX] }\n`,
      }),
    )
    expect(problems).toEqual([
      'src/server/modules/orders/place.ts declares PO_NUMBER_MAX',
      'defaultPoNumber: no file under src/server/ uses it',
    ])
  })

  it('holds a server-only rule to being the server’s alone', () => {
    expect(checkRules(fixture(), { defaultPoNumber: 'a reason' }).problems).toEqual([
      'defaultPoNumber: listed as server-only but the page uses it',
    ])
    expect(checkRules(fixture(), { zoneFor: 'a reason' }).problems).toEqual([
      'zoneFor: listed as server-only but not a rule',
    ])
  })
})

describe('src/shared/checkout-rules.ts in the shop', () => {
  const files = sourceFiles('src')
  const { rules, problems, users } = checkRules(files, SERVER_ONLY)

  it('holds the rules of issue 30: PO number, VAT number, delivery countries, promotions, limits', () => {
    for (const r of [
      'defaultPoNumber',
      'PO_NUMBER_MAX',
      'vatNumberApplies',
      'VAT_NUMBER_MAX',
      'countryInList',
      'deliveryCountries',
      'zoneFor',
      'MAX_PROMOTION_CODES',
      'tooManyPromotionCodes',
      'promotionCodesInForce',
      'PROMO_CODE_MAX',
      'MAX_QUANTITY',
      'MAX_BASKET_TOTAL_MINOR',
      'NOTES_MAX',
      'PHONE_MIN',
      'PHONE_MAX',
      'addressSearchStarts',
    ])
      expect(rules).toContain(r)
  })

  it('is used by the page and by the server for each rule, and declared nowhere else', () => {
    expect(problems).toEqual([])
  })

  it('reaches the page and the server directly for the PO number and the VAT number', () => {
    expect(users.get('defaultPoNumber')!.client).toContain('src/client/checkout/payment/purchase-order.tsx')
    expect(users.get('vatNumberApplies')!.client).toContain('src/client/pages/Checkout.tsx')
    expect(users.get('vatNumberApplies')!.server.some((f) => f.includes('/modules/'))).toBe(true)
    expect(users.get('defaultPoNumber')!.server.some((f) => f.includes('/modules/'))).toBe(true)
  })
})
