/**
 * Whether prices are shown with VAT (spec §4 "VAT display"). A visitor who arrives through a
 * product-feed campaign (utm_medium=product_feed_or_listings) gets prices with VAT and a toggle;
 * the choice is kept in sessionStorage for the browser session. Everyone else sees prices as the
 * site's tax setting says (ex VAT on the demo sites) and a fixed note; a site that charges no tax
 * shows neither. The server renders the site's default; a stored choice is applied after hydration.
 */
import { createContext, use, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { SiteTax } from '../../shared/page-props.ts'
import { UK_VAT } from '../../shared/tax.ts'

export const VAT_STORAGE_KEY = 'vatDisplay'
export const PRODUCT_FEED_MEDIUM = 'product_feed_or_listings'

interface Stored {
  toggle: boolean
  incVat: boolean
}

export interface VatDisplay {
  /** Prices include VAT */
  incVat: boolean
  /** The visitor may switch (arrived through a product feed) */
  toggleAvailable: boolean
  setIncVat: (on: boolean) => void
  /** The site's tax setting */
  tax: SiteTax
}

function read(): Stored | null {
  try {
    const raw = window.sessionStorage.getItem(VAT_STORAGE_KEY)
    return raw ? (JSON.parse(raw) as Stored) : null
  } catch {
    return null
  }
}

function write(value: Stored) {
  try {
    window.sessionStorage.setItem(VAT_STORAGE_KEY, JSON.stringify(value))
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
}

const VatContext = createContext<VatDisplay>({
  incVat: false,
  toggleAvailable: false,
  setIncVat: () => {},
  tax: UK_VAT,
})

export function VatProvider({ children, tax = UK_VAT }: { children: ReactNode; tax?: SiteTax }) {
  const charged = tax.rate > 0
  const siteDefault = charged && tax.pricesIncludeTax
  const [state, setState] = useState<Stored>({ toggle: false, incVat: siteDefault })

  useEffect(() => {
    if (!charged) return
    const fromFeed = new URLSearchParams(window.location.search).get('utm_medium') === PRODUCT_FEED_MEDIUM
    const stored = read()
    const next = fromFeed
      ? { toggle: true, incVat: true }
      : (stored ?? { toggle: false, incVat: siteDefault })
    if (fromFeed) write(next)
    // Applied after hydration so the server-rendered (ex VAT) markup matches the first render.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setState(next)
  }, [charged, siteDefault])

  const value = useMemo<VatDisplay>(
    () => ({
      incVat: charged && state.incVat,
      toggleAvailable: charged && state.toggle,
      tax,
      setIncVat: (on) => {
        const next = { toggle: state.toggle, incVat: on }
        write(next)
        setState(next)
      },
    }),
    [state, tax, charged],
  )
  return <VatContext value={value}>{children}</VatContext>
}

export function useVat(): VatDisplay {
  return use(VatContext)
}
