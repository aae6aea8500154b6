/** The 'Custom Pricing' tab: zone-pricing tables, one per builder customisation type. */
import type { ZonePriceTable } from '../../../shared/product.ts'
import { Price } from '../Price.tsx'

export const CUSTOM_PRICING = 'Custom Pricing'

export function ZonePricing({ tables }: { tables: ZonePriceTable[] }) {
  return (
    <div className="flex flex-wrap gap-6" data-testid="zone-pricing">
      {tables.map((table) => (
        <table key={table.label} className="min-w-56 border-collapse text-sm">
          <caption className="pb-2 text-left font-semibold">{table.label}</caption>
          <thead>
            <tr className="bg-gray-50">
              <th scope="col" className="border border-gray-200 px-3 py-1.5 text-left">
                Quantity
              </th>
              <th scope="col" className="border border-gray-200 px-3 py-1.5 text-right">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {table.prices.map((p, i) => (
              <tr key={`${p.quantityBreak}-${i}`}>
                <td className="border border-gray-200 px-3 py-1.5">{p.quantityBreak}</td>
                <td className="border border-gray-200 px-3 py-1.5 text-right tabular-nums">
                  <Price amount={p.price} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  )
}
