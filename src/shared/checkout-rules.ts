/**
 * Which of a site's delivery zones an address falls in (spec §7 `POST /checkout/update-delivery`:
 * countryCode and regionCode, the postcode). Zones are the names of the site's delivery rates;
 * the rules here map a country and postcode onto them. Null: the site does not deliver there.
 */

/** UK postcode areas of the Highlands and Islands, and Northern Ireland's. */
const HIGHLANDS =
  /^(HS|ZE|KW|IV|PH(1[5-9]|[2-4]\d|50)|PA(2[0-9]|3[0-9]|4[0-9]|6\d|7\d|80)|KA27|KA28|TR2[1-5]|PO3\d|PO4[01]|IM|GY|JE)/
const NORTHERN_IRELAND = /^BT/
const EUROPE = new Set(['IE', 'FR', 'DE', 'NL', 'BE', 'ES', 'IT', 'PT', 'DK', 'SE', 'AT', 'LU'])

export function zoneFor(
  zones: readonly string[],
  countryCode: string,
  regionCode: string | null,
): string | null {
  const country = countryCode.trim().toUpperCase()
  const postcode = (regionCode ?? '').replace(/\s+/g, '').toUpperCase()
  const has = (z: string) => (zones.includes(z) ? z : null)
  if (country === 'GB') {
    if (NORTHERN_IRELAND.test(postcode)) return has('Northern Ireland')
    if (HIGHLANDS.test(postcode)) return has('Highlands and Islands')
    return has('UK Mainland')
  }
  if (EUROPE.has(country)) return has('Ireland and Europe')
  if (country === 'US') {
    // Alaska (995-999) and Hawaii (967-968) are outside the contiguous states.
    if (/^(99[5-9]|96[78])/.test(postcode)) return null
    return has('Contiguous US')
  }
  if (country === 'CA') return has('Canada')
  return null
}
