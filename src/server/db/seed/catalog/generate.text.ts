/** The words of a generated product: its name from a stem and a variant, its description's parts. */
import { hashString } from './prng.ts'
import { type FamilySpec } from './vocabulary.ts'

export function productName(family: FamilySpec, stem: string, variant: string): string {
  switch (family.pattern) {
    case 'sign':
      return `${stem.endsWith(' Sign') ? stem : `${stem} Sign`} – ${variant}`
    case 'model':
      return `${variant} ${stem}`
    case 'dash':
      return `${stem} – ${variant}`
  }
}

export function html(paragraphs: string[]): string {
  return paragraphs.map((p) => `<p>${p}</p>`).join('')
}

/** 'a', 'a and b', 'a, b and c' */
export function listOf(items: readonly string[], last = 'and'): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`
}

/**
 * The opening line of a product's description: what this product comes in (its grid's rows and
 * options), worded in one of several ways picked from the url, so neighbours read differently.
 */
export function productIntro(
  name: string,
  rows: readonly string[],
  options: readonly (string | null)[],
  unit: string,
  url: string,
): string {
  const opts = options.filter((o): o is string => !!o)
  const sized = rows.every((r) => /\d/.test(r))
  const range = sized
    ? rows.length === 1
      ? `one size, ${rows[0]}`
      : `${rows.length} sizes from ${rows[0]} to ${rows[rows.length - 1]}`
    : listOf(
        rows.map((r) => r.toLowerCase()),
        'or',
      )
  const choice = opts.length ? `, ${opts.length === 1 ? 'in' : 'in a choice of'} ${listOf(opts, 'or')}` : ''
  const forms = [
    `The ${name} comes in ${range}${choice}.`,
    `Choose the ${name} in ${range}${choice}.`,
    `Order the ${name} in ${range}${choice}; the price ${unit === 'pack' ? 'per pack' : 'each'} falls as the quantity goes up.`,
    `The ${name} is offered in ${range}${choice}.`,
  ]
  return forms[hashString(url) % forms.length] as string
}
