/**
 * Main header: logo link, account/login, basket summary, desktop navigation, and the mobile menu
 * toggle (up to 767 px). It becomes sticky after `site.stickyHeaderOffset` px of scroll; on mobile
 * it slides away while scrolling down past its own height and returns on scrolling up.
 */
import { Link, usePage } from '@inertiajs/react'
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react'
import type { CartSummary as CartSummaryProps, CustomerSummary, SiteProps } from '../../shared/page-props.ts'
import { MobileSearch } from '../components/search/MobileSearch.tsx'
import { SearchBox } from '../components/search/SearchBox.tsx'
import { MOBILE_QUERY } from '../lib/media.ts'
import { AccountMenu } from './AccountMenu.tsx'
import { loginHref } from './account-links.ts'
import { CartSummary } from './CartSummary.tsx'
import { MenuIcon } from './icons.tsx'
import { MainNavigation } from './MainNavigation.tsx'
import { MobileMenu } from './MobileMenu.tsx'

interface StickyState {
  stuck: boolean
  hidden: boolean
}

function useStickyHeader(ref: RefObject<HTMLElement | null>, offset: number, holdVisible: boolean) {
  const [state, setState] = useState<StickyState>({ stuck: false, hidden: false })
  const holdRef = useRef(holdVisible)
  useEffect(() => {
    holdRef.current = holdVisible
  }, [holdVisible])

  useEffect(() => {
    const mobile = window.matchMedia(MOBILE_QUERY)
    let lastY = window.scrollY
    let hidden = false
    let frame = 0

    const update = () => {
      frame = 0
      const y = Math.max(0, window.scrollY)
      const height = ref.current?.offsetHeight ?? 0
      const stuck = y > offset
      const header = ref.current
      const focusInside = !!header && header.contains(document.activeElement)
      if (!stuck || !mobile.matches || holdRef.current || focusInside) hidden = false
      else if (y > lastY && y > Math.max(offset, height)) hidden = true
      else if (y < lastY) hidden = false
      lastY = y
      setState((s) => (s.stuck === stuck && s.hidden === hidden ? s : { stuck, hidden }))
    }
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(update)
    }
    schedule()
    window.addEventListener('scroll', schedule, { passive: true })
    window.addEventListener('resize', schedule)
    ref.current?.addEventListener('focusin', schedule)
    const el = ref.current
    return () => {
      if (frame) window.cancelAnimationFrame(frame)
      window.removeEventListener('scroll', schedule)
      window.removeEventListener('resize', schedule)
      el?.removeEventListener('focusin', schedule)
    }
  }, [offset, ref])

  return state
}

export function Header({
  site,
  customer,
  cart,
}: {
  site: SiteProps
  customer: CustomerSummary | null
  cart: CartSummaryProps
}) {
  const { url } = usePage()
  const headerRef = useRef<HTMLElement>(null)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const [menuOpen, setMenuOpen] = useState(false)
  const menuId = useId()
  const { stuck, hidden } = useStickyHeader(headerRef, Math.max(0, site.stickyHeaderOffset || 0), menuOpen)

  const closeMenu = useCallback((restoreFocus: boolean) => {
    setMenuOpen(false)
    if (restoreFocus) toggleRef.current?.focus()
  }, [])

  return (
    <>
      <header
        ref={headerRef}
        data-sticky={stuck ? 'true' : 'false'}
        className={`focus-on-header hdr ${stuck ? 'sticky top-0 shadow-md' : 'relative'}${hidden ? ' -translate-y-full' : ''}`}
      >
        <div className="hdr-bar">
          <button
            ref={toggleRef}
            type="button"
            className="hdr-toggle"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((v) => !v)}
          >
            <MenuIcon />
            <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
          </button>
          <Link href="/" className="hdr-logo" data-testid="site-logo">
            {site.logo ? (
              <img
                src={site.logo}
                alt={site.name}
                // A box for the logo before it loads (any logo fits it: object-contain).
                width={176}
                height={40}
                className="hdr-logo-img"
              />
            ) : (
              <span className="hdr-name">{site.name}</span>
            )}
          </Link>
          <SearchBox className="hdr-search" />
          <MobileSearch />
          {customer ? (
            <AccountMenu customer={customer} cartName={site.cartName} />
          ) : (
            <Link href={loginHref(url)} className="hdr-login">
              Login
            </Link>
          )}
          <CartSummary cart={cart} currency={site.currency} cartName={site.cartName} />
        </div>
        <MainNavigation items={site.navigation} />
      </header>
      <MobileMenu
        id={menuId}
        open={menuOpen}
        onClose={closeMenu}
        navigation={site.navigation}
        customer={customer}
        cartName={site.cartName}
        siteName={site.name}
        loginHref={loginHref(url)}
      />
    </>
  )
}
