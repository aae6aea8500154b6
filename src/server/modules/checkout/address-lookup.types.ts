/**
 * The address-lookup seam (spec §5, §7 address search): what the checkout asks of any lookup, the
 * embedded one and a provider's alike. Its own file so that a provider's lookup and the module that
 * picks one (`address-lookup.ts`) both depend on it and not on each other.
 */
import type { AddressData } from '../../../shared/customer.ts'

export interface AddressMatch {
  id: string
  label: string
  address: AddressData
}

export interface AddressLookup {
  search(query: string, countries: readonly string[], limit?: number): Promise<AddressMatch[]>
}
