/**
 * The words a site uses for its sales tax, from the site's tax setting (name, standard rate,
 * whether prices are shown with it). A site whose rate is 0 charges no tax: it shows no tax note,
 * no tax line and no '(ex VAT)'. The spec's own texts ('Prices exclude VAT at 20%',
 * 'Subtotal (ex VAT)') are what a 20% VAT site shows.
 */
import type { SiteTax } from './page-props.ts'

export const UK_VAT: SiteTax = { name: 'VAT', rate: 20, pricesIncludeTax: false }

export interface TaxWording {
  /** The site charges tax at all */
  charged: boolean
  /** 'Prices exclude VAT at 20%' / 'Prices include VAT at 20%'; '' when none is charged */
  note: string
  /** The toggle's label for product-feed visitors */
  toggle: string
  /** ' (ex VAT)' after an amount without tax; '' when none is charged */
  exSuffix: string
  /** 'Subtotal (ex VAT)' or 'Subtotal' */
  subtotal: string
  /** The tax line's label, e.g. 'VAT' */
  line: string
}

const rateText = (rate: number) => `${Number.isInteger(rate) ? rate : rate.toFixed(2).replace(/0+$/, '')}%`

export function taxWording(tax: SiteTax = UK_VAT): TaxWording {
  const charged = tax.rate > 0
  const at = `${tax.name} at ${rateText(tax.rate)}`
  return {
    charged,
    note: charged ? `Prices ${tax.pricesIncludeTax ? 'include' : 'exclude'} ${at}` : '',
    toggle: charged ? `Show prices including ${at}` : '',
    exSuffix: charged ? ` (ex ${tax.name})` : '',
    subtotal: charged ? `Subtotal (ex ${tax.name})` : 'Subtotal',
    line: tax.name,
  }
}
