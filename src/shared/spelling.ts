/**
 * Words spelt the way the site's visitors spell them: a US site (locale en-US) says 'Color',
 * a UK site 'Colour'. Only words the shop's own interface prints are here; product data and
 * content are written per site already.
 */
export type SpellingLocale = 'en-GB' | 'en-US'

/** 'Colour' / 'Color', or 'Colours' / 'Colors'. */
export function colourWord(locale: SpellingLocale | null | undefined, plural = false): string {
  const word = locale === 'en-US' ? 'Color' : 'Colour'
  return plural ? `${word}s` : word
}

/** The locale of a currency's site when only the currency is at hand (USD sites are US sites). */
export function localeOfCurrency(currency: 'GBP' | 'USD'): SpellingLocale {
  return currency === 'USD' ? 'en-US' : 'en-GB'
}
