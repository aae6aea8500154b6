/**
 * The real UK address lookup: Ideal Postcodes' address search (`GET /v1/addresses`), which answers
 * complete Royal Mail PAF addresses for a free-text query in one call, so a pick needs no second,
 * separately charged resolve call. A thin typed client: the key goes in the `api_key` query
 * parameter, the answer is `{ code: 2000, result: { hits: [...] } }`, errors are `{ code, message }`
 * with an HTTP status (401/4010 bad key, 402/4020 balance used up, 429 too many requests).
 *
 * The provider covers Great Britain only: a site that does not deliver to GB asks the embedded
 * lookup. When the provider fails (time-out, bad key, no balance, 5xx) the shopper is not left
 * with an error: the embedded lookup answers (the shop's own addresses), and the failure is logged.
 */
import { addressSearchStarts } from '../../../shared/checkout-rules.ts'
import type { AddressData } from '../../../shared/customer.ts'
import type { AddressLookup, AddressMatch } from './address-lookup.types.ts'

export interface IdealPostcodesConfig {
  apiKey: string
  /** https://api.ideal-postcodes.co.uk, or a local stand-in in tests */
  baseUrl: string
  timeoutMs: number
}

/** The part of a PAF address (Ideal Postcodes' `Address` object) the shop uses. */
export interface IdealPostcodesAddress {
  id?: string
  udprn?: number
  postcode: string
  post_town: string
  line_1: string
  line_2?: string
  line_3?: string
  organisation_name?: string
  county?: string
  /** 'England', 'Scotland', 'Wales', 'Northern Ireland', 'Isle of Man', 'Channel Islands' */
  country?: string
  country_iso_2?: string
}

export interface IdealPostcodesSearchAnswer {
  code: number
  message: string
  result?: { hits: IdealPostcodesAddress[]; page?: number; limit?: number; total?: number }
}

export class IdealPostcodesError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message)
    this.name = 'IdealPostcodesError'
  }
}

/** The client: one call, typed answer, a time-out, errors as IdealPostcodesError. */
export class IdealPostcodesClient {
  constructor(
    private readonly config: IdealPostcodesConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async searchAddresses(query: string, limit: number): Promise<IdealPostcodesAddress[]> {
    const url = new URL('/v1/addresses', this.config.baseUrl)
    url.searchParams.set('api_key', this.config.apiKey)
    url.searchParams.set('query', query)
    url.searchParams.set('limit', String(limit))
    let res: Response
    try {
      res = await this.fetchImpl(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.config.timeoutMs),
      })
    } catch (err) {
      throw new IdealPostcodesError(0, null, `address lookup unreachable: ${(err as Error).message}`)
    }
    const body = (await res.json().catch(() => null)) as IdealPostcodesSearchAnswer | null
    if (!res.ok || !body || body.code !== 2000 || !Array.isArray(body.result?.hits)) {
      throw new IdealPostcodesError(
        res.status,
        typeof body?.code === 'number' ? body.code : null,
        `address lookup failed: ${res.status} ${body?.message ?? ''}`.trim(),
      )
    }
    return body.result.hits
  }
}

const COUNTRY_CODES: Record<string, string> = {
  England: 'GB',
  Scotland: 'GB',
  Wales: 'GB',
  'Northern Ireland': 'GB',
}

/** A PAF address in the shop's address fields (address2 joins PAF's second and third lines). */
export function toAddressData(a: IdealPostcodesAddress): AddressData {
  return {
    company: a.organisation_name ?? '',
    address1: a.line_1,
    address2: [a.line_2, a.line_3].filter(Boolean).join(', '),
    town: titleCase(a.post_town),
    county: a.county ?? '',
    postcode: a.postcode,
    country: a.country_iso_2 || COUNTRY_CODES[a.country ?? ''] || 'GB',
  }
}

/** PAF post towns are upper case ('BRISTOL'); the form shows 'Bristol', 'Newcastle upon Tyne'. */
function titleCase(town: string): string {
  if (town !== town.toUpperCase()) return town
  return town
    .toLowerCase()
    .replace(/(^|[\s-])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase())
    .replace(/\b(Upon|On|Under|Le|In|By|The|De)\b/g, (w, _x, offset: number) =>
      offset === 0 ? w : w.toLowerCase(),
    )
}

export class IdealPostcodesLookup implements AddressLookup {
  constructor(
    private readonly client: IdealPostcodesClient,
    private readonly fallback: AddressLookup,
    private readonly log: { warn: (obj: object, msg: string) => void } = { warn: () => {} },
  ) {}

  async search(query: string, countries: readonly string[], limit = 10): Promise<AddressMatch[]> {
    const q = query.replace(/\s+/g, ' ').trim()
    if (!addressSearchStarts(q)) return []
    if (!countries.includes('GB')) return this.fallback.search(q, countries, limit)
    try {
      const hits = await this.client.searchAddresses(q, limit)
      return hits.slice(0, limit).map((hit, i) => {
        const address = toAddressData(hit)
        return {
          id: hit.id ?? (hit.udprn ? `paf_${hit.udprn}` : `hit-${i}`),
          label: [address.company, address.address1, address.address2, address.town, address.postcode]
            .filter(Boolean)
            .join(', '),
          address,
        }
      })
    } catch (err) {
      this.log.warn({ err }, 'address lookup provider failed; answering from the embedded lookup')
      return this.fallback.search(q, countries, limit)
    }
  }
}
