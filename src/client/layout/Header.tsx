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
        className={`focus-on-header z-30 border-b border-gray-200 bg-header text-header-text transition-transform duration-200 ${
          stuck ? 'sticky top-0 shadow-md' : 'relative'
        } ${hidden ? '-translate-y-full' : ''}`}
      >
        <div className="mx-auto flex max-w-page items-center gap-2 px-4 py-3 md:gap-4">
          <button
            ref={toggleRef}
            type="button"
            className="-ml-1 rounded p-1.5 text-2xl hover:bg-black/5 md:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((v) => !v)}
          >
            <MenuIcon />
            <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
          </button>
          <Link href="/" className="mr-auto flex min-w-0 items-center" data-testid="site-logo">
            {site.logo ? (
              <img
                src={site.logo}
                alt={site.name}
                // A box for the logo before it loads (any logo fits it: object-contain).
                width={176}
                height={40}
                className="h-10 w-auto max-w-[11rem] object-contain md:h-14 md:max-w-xs"
              />
            ) : (
              <span className="truncate text-xl font-bold md:text-2xl">{site.name}</span>
            )}
          </Link>
          <SearchBox className="hidden md:block md:w-80 lg:w-[28rem]" />
          <MobileSearch />
          {customer ? (
            <AccountMenu customer={customer} cartName={site.cartName} />
          ) : (
            <Link href={loginHref(url)} className="rounded px-2 py-1.5 font-medium hover:bg-black/5">
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
