/**
 * Address search at checkout (spec §5, §7 "GET configurable search url"), behind one interface
 * like every outside service. The embedded default works offline: the shop's own addresses (its
 * premises) and a small demo set of fictional addresses, matched on every word of the query.
 * The real UK provider (Ideal Postcodes, `ADDRESS_LOOKUP=ideal-postcodes`) is another `AddressLookup`
 * chosen by configuration (`addressLookupFor`).
 */
import { addressSearchStarts } from '../../../shared/checkout-rules.ts'
import type { AddressData } from '../../../shared/customer.ts'
import type { Config } from '../../config.ts'
import type { AddressLookup, AddressMatch } from './address-lookup.types.ts'
import { IdealPostcodesClient, IdealPostcodesLookup } from './ideal-postcodes.ts'

export type { AddressLookup, AddressMatch } from './address-lookup.types.ts'

const a = (address1: string, town: string, postcode: string, country = 'GB', county = '', company = '') => ({
  company,
  address1,
  address2: '',
  town,
  county,
  postcode,
  country,
})

/** Fictional addresses (Ofcom drama postcodes and made-up streets) for the demo shop. */
export const DEMO_ADDRESSES: AddressData[] = [
  a('1 Harbour Way', 'Plymouth', 'PL1 2AA', 'GB', 'Devon', 'Harbour Safety Supplies Ltd'),
  a('12 Quay Street', 'Bristol', 'BS1 4DJ', 'GB', 'Avon'),
  a('14 Quay Street', 'Bristol', 'BS1 4DJ', 'GB', 'Avon'),
  a('3 Dock Road', 'Cardiff', 'CF10 5AL'),
  a('7 Mill Lane', 'Leeds', 'LS1 4AP', 'GB', 'West Yorkshire'),
  a('21 Station Road', 'Reading', 'RG1 1LX', 'GB', 'Berkshire'),
  a('5 Castle Street', 'Edinburgh', 'EH1 2DP'),
  a('9 Abbey Road', 'Bath', 'BA1 1LT', 'GB', 'Somerset'),
  a('40 High Street', 'Exeter', 'EX4 3LS', 'GB', 'Devon'),
  a('2 Shore Road', 'Stornoway', 'HS1 2AA'),
  a('18 Donegall Square', 'Belfast', 'BT1 5GS'),
  a('6 Market Place', 'Manchester', 'M1 1PT', 'GB', 'Greater Manchester'),
  a('11 Kings Parade', 'Cambridge', 'CB2 1SJ', 'GB', 'Cambridgeshire'),
  a('3 Merchant Quay', 'Dublin', 'D08 X2Y3', 'IE', 'Dublin'),
  a('400 Lake Shore Drive', 'Chicago', '60611', 'US', 'IL', 'Northgate Workplace Inc.'),
  a('1200 Main Street', 'Springfield', '62701', 'US', 'IL'),
  a('55 Water Street', 'New York', '10041', 'US', 'NY'),
  a('250 King Street West', 'Toronto', 'M5V 1J2', 'CA', 'ON'),
]

function labelOf(x: AddressData): string {
  return [x.company, x.address1, x.address2, x.town, x.county, x.postcode].filter(Boolean).join(', ')
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim()

export class EmbeddedAddressLookup implements AddressLookup {
  private readonly entries: { match: string; compact: string; result: AddressMatch }[]

  constructor(addresses: readonly AddressData[] = DEMO_ADDRESSES) {
    this.entries = addresses.map((x, i) => {
      const label = labelOf(x)
      return {
        match: norm(`${label} ${x.country}`),
        compact: norm(label).replace(/\s/g, ''),
        result: { id: `demo-${i + 1}`, label, address: x },
      }
    })
  }

  async search(query: string, countries: readonly string[], limit = 10): Promise<AddressMatch[]> {
    const words = norm(query).split(' ').filter(Boolean)
    const compactQuery = words.join('')
    if (!addressSearchStarts(compactQuery)) return []
    return this.entries
      .filter((e) => countries.includes(e.result.address.country))
      .filter((e) => words.every((w) => e.match.includes(w)) || e.compact.includes(compactQuery))
      .slice(0, limit)
      .map((e) => e.result)
  }
}

/** The lookup the configuration names: the embedded one unless a provider is configured. */
export function addressLookupFor(
  config: Pick<Config, 'addressLookup'>,
  log?: { warn: (obj: object, msg: string) => void },
): AddressLookup {
  const embedded = new EmbeddedAddressLookup()
  const c = config.addressLookup
  if (c.provider === 'embedded') return embedded
  return new IdealPostcodesLookup(
    new IdealPostcodesClient({ apiKey: c.apiKey, baseUrl: c.baseUrl, timeoutMs: c.timeoutMs }),
    embedded,
    log,
  )
}
