/**
 * The `filters` grammar of the search service (Algolia's, spec §7): facet filters `attr:value`,
 * numeric comparisons `attr < 10`, ranges `attr:1 TO 9`, NOT, OR groups and AND between them.
 * OR binds tighter than AND, so 'type:product_group OR type:product AND status:published' reads
 * as (product_group OR product) AND published, as Algolia reads it. Filters compile to
 * conjunctive normal form; what Algolia rejects (AND inside brackets, NOT before brackets, an
 * attribute that is not filterable) is rejected here with a FilterError (a 400).
 *
 * Only the storefront's own constants reach this parser: a visitor's query text is never
 * spliced into a filter string.
 */

export class FilterError extends Error {
  readonly statusCode = 400
  constructor(message: string) {
    super(`filters: ${message}`)
    this.name = 'FilterError'
  }
}

export type Literal =
  | { kind: 'facet'; attribute: string; value: string; negated: boolean }
  | {
      kind: 'numeric'
      attribute: string
      op: '<' | '<=' | '=' | '!=' | '>=' | '>'
      value: number
      negated: boolean
    }
  | { kind: 'range'; attribute: string; from: number; to: number; negated: boolean }

/** AND of OR-clauses. An empty list matches everything. */
export type Cnf = Literal[][]

type TokenKind = 'word' | 'string' | 'op' | '(' | ')' | ':' | 'AND' | 'OR' | 'NOT' | 'TO'
interface Tok {
  kind: TokenKind
  text: string
}

const MAX_FILTER_LENGTH = 2000
const MAX_CLAUSES = 100

function lex(input: string): Tok[] {
  const out: Tok[] = []
  let i = 0
  while (i < input.length) {
    const c = input[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (c === '(' || c === ')' || c === ':') {
      out.push({ kind: c, text: c })
      i++
      continue
    }
    if (c === '<' || c === '>' || c === '!' || c === '=') {
      const two = input.slice(i, i + 2)
      if (two === '<=' || two === '>=' || two === '!=') {
        out.push({ kind: 'op', text: two })
        i += 2
      } else if (c === '!') {
        throw new FilterError(`unexpected '!' at position ${i + 1}`)
      } else {
        out.push({ kind: 'op', text: c })
        i++
      }
      continue
    }
    if (c === '"' || c === "'") {
      let j = i + 1
      let text = ''
      while (j < input.length && input[j] !== c) {
        if (input[j] === '\\' && j + 1 < input.length) j++
        text += input[j]
        j++
      }
      if (j >= input.length) throw new FilterError('unclosed quote')
      out.push({ kind: 'string', text })
      i = j + 1
      continue
    }
    let j = i
    while (j < input.length && !/[\s():<>=!"']/.test(input[j]!)) j++
    const word = input.slice(i, j)
    const upper = word.toUpperCase()
    if (word === 'AND' || word === 'OR' || word === 'NOT' || word === 'TO')
      out.push({ kind: word, text: word })
    else if (upper === 'AND' || upper === 'OR' || upper === 'NOT')
      out.push({ kind: upper as TokenKind, text: word })
    else out.push({ kind: 'word', text: word })
    i = j
  }
  return out
}

const NUMBER = /^-?\d+(\.\d+)?$/

class Parser {
  private i = 0
  constructor(
    private readonly toks: Tok[],
    private readonly facets: ReadonlySet<string>,
    private readonly numerics: ReadonlySet<string>,
  ) {}

  private peek(): Tok | undefined {
    return this.toks[this.i]
  }
  private take(kind?: TokenKind): Tok {
    const t = this.toks[this.i]
    if (!t) throw new FilterError('unexpected end of filter')
    if (kind && t.kind !== kind) throw new FilterError(`expected ${kind} but found '${t.text}'`)
    this.i++
    return t
  }

  parse(): Cnf {
    if (this.toks.length === 0) return []
    const clauses: Cnf = [...this.clause()]
    while (this.peek()) {
      this.take('AND')
      clauses.push(...this.clause())
      if (clauses.length > MAX_CLAUSES) throw new FilterError('too many conditions')
    }
    return clauses
  }

  /** One AND operand: an OR group, bracketed or not. Returns one clause. */
  private clause(): Cnf {
    if (this.peek()?.kind === '(') {
      this.take('(')
      const group = this.orGroup(true)
      this.take(')')
      return [group]
    }
    return [this.orGroup(false)]
  }

  private orGroup(bracketed: boolean): Literal[] {
    const literals = [this.literal()]
    while (this.peek()?.kind === 'OR') {
      this.take('OR')
      literals.push(this.literal())
    }
    if (bracketed && this.peek()?.kind === 'AND') {
      throw new FilterError('AND inside brackets is not supported; filters must be an AND of OR groups')
    }
    const kinds = new Set(literals.map((l) => (l.kind === 'facet' ? 'facet' : 'numeric')))
    if (kinds.size > 1) throw new FilterError('an OR group cannot mix facet and numeric filters')
    return literals
  }

  private literal(): Literal {
    let negated = false
    if (this.peek()?.kind === 'NOT') {
      this.take('NOT')
      negated = true
      if (this.peek()?.kind === '(') throw new FilterError('NOT before brackets is not supported')
    }
    const attrTok = this.take()
    if (attrTok.kind !== 'word' && attrTok.kind !== 'string') {
      throw new FilterError(`expected an attribute but found '${attrTok.text}'`)
    }
    const attribute = attrTok.text
    const next = this.take()
    if (next.kind === 'op') {
      const value = this.take()
      if (!NUMBER.test(value.text)) throw new FilterError(`'${attribute}' must be compared with a number`)
      this.checkNumeric(attribute)
      return { kind: 'numeric', attribute, op: next.text as '<', value: Number(value.text), negated }
    }
    if (next.kind !== ':') throw new FilterError(`expected ':' after '${attribute}'`)
    const value = this.take()
    if (value.kind !== 'word' && value.kind !== 'string') {
      throw new FilterError(`expected a value after '${attribute}:'`)
    }
    if (value.kind === 'word' && NUMBER.test(value.text) && this.peek()?.kind === 'TO') {
      this.take('TO')
      const to = this.take()
      if (!NUMBER.test(to.text)) throw new FilterError('a range needs two numbers')
      this.checkNumeric(attribute)
      return { kind: 'range', attribute, from: Number(value.text), to: Number(to.text), negated }
    }
    if (!this.facets.has(attribute)) {
      throw new FilterError(`attribute '${attribute}' is not filterable`)
    }
    return { kind: 'facet', attribute, value: value.text, negated }
  }

  private checkNumeric(attribute: string) {
    if (!this.numerics.has(attribute)) throw new FilterError(`attribute '${attribute}' is not numeric`)
  }
}

/** Parses a filters string against the filterable facet and numeric attributes. */
export function parseFilters(
  input: string | undefined,
  facets: ReadonlySet<string>,
  numerics: ReadonlySet<string> = new Set(),
): Cnf {
  if (input === undefined || input.trim() === '') return []
  if (input.length > MAX_FILTER_LENGTH) throw new FilterError('too long')
  return new Parser(lex(input), facets, numerics).parse()
}

function matchLiteral(lit: Literal, get: (attribute: string) => unknown): boolean {
  const raw = get(lit.attribute)
  const values = Array.isArray(raw) ? raw : [raw]
  let hit: boolean
  switch (lit.kind) {
    case 'facet': {
      const want = lit.value.toLowerCase()
      hit = values.some((v) => v !== undefined && v !== null && String(v).toLowerCase() === want)
      break
    }
    case 'numeric':
      hit = values.some((v) => {
        if (typeof v !== 'number') return false
        switch (lit.op) {
          case '<':
            return v < lit.value
          case '<=':
            return v <= lit.value
          case '=':
            return v === lit.value
          case '!=':
            return v !== lit.value
          case '>=':
            return v >= lit.value
          case '>':
            return v > lit.value
        }
      })
      break
    case 'range':
      hit = values.some((v) => typeof v === 'number' && v >= lit.from && v <= lit.to)
      break
  }
  return lit.negated ? !hit : hit
}

/** Whether a record passes a compiled filter. */
export function matchesFilters(cnf: Cnf, get: (attribute: string) => unknown): boolean {
  for (const clause of cnf) {
    if (!clause.some((lit) => matchLiteral(lit, get))) return false
  }
  return true
}
