/**
 * Slide-in menu for screens up to 767 px (default width 260 px). While open it locks page
 * scroll, keeps keyboard focus inside, and closes on Escape, on the backdrop, on the close
 * button and on any link click inside it. Its contents render on the first open, not in the
 * server's HTML (about 1.5 KB of every page of the demo sites; ADR 0110); the dialog's box stays,
 * so the toggle's aria-controls names an element from the start.
 */
import { Link, router } from '@inertiajs/react'
import { useEffect, useRef, useState, type RefObject } from 'react'
import type { CustomerSummary, NavItem } from '../../shared/page-props.ts'
import { accountLinks } from './account-links.ts'
import { logOut } from './AccountMenu.tsx'
import { CloseIcon } from './icons.tsx'

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])'

export function MobileMenu({
  id,
  open,
  onClose,
  navigation,
  customer,
  cartName,
  siteName,
  loginHref = '/login',
}: {
  id: string
  open: boolean
  /** `restoreFocus`: move focus back to the toggle (Escape, close button), not after a link click */
  onClose: (restoreFocus: boolean) => void
  navigation: readonly NavItem[]
  customer: CustomerSummary | null
  cartName: string
  siteName: string
  /** The Login link (names the current page to come back to) */
  loginHref?: string
}) {
  const panelRef = useRef<HTMLDivElement>(null)
  const closeRef = useRef<HTMLButtonElement>(null)
  // Rendered from the first open on (kept while it slides out and for later opens).
  const [rendered, setRendered] = useState(open)
  if (open && !rendered) setRendered(true)

  useEffect(() => {
    if (!open) return
    const body = document.body
    const previousOverflow = body.style.overflow
    body.style.overflow = 'hidden'
    closeRef.current?.focus()

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault()
        onClose(true)
        return
      }
      if (e.key !== 'Tab' || !panelRef.current) return
      const items = [...panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => !el.closest('[hidden]'),
      )
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault()
        last.focus()
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault()
        first.focus()
      }
    }
    const mq = window.matchMedia('(min-width: 768px)')
    const onWide = () => mq.matches && onClose(false)
    const stopNavigate = router.on('navigate', () => onClose(false))
    document.addEventListener('keydown', onKey)
    mq.addEventListener('change', onWide)
    return () => {
      body.style.overflow = previousOverflow
      document.removeEventListener('keydown', onKey)
      mq.removeEventListener('change', onWide)
      stopNavigate()
    }
  }, [open, onClose])

  return (
    <div className="md:hidden">
      <div
        aria-hidden="true"
        data-testid="mobile-menu-backdrop"
        onClick={() => onClose(false)}
        className={`mm-backdrop ${open ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
      />
      <div
        ref={panelRef}
        id={id}
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        onClick={(e) => {
          if ((e.target as Element).closest('a')) onClose(false)
        }}
        // Opening: visible at once (so focus can move in). Closing: stay visible while sliding out.
        className={`focus-on-page mm-panel ${
          open
            ? 'visible translate-x-0 transition-[translate]'
            : 'invisible -translate-x-full transition-[translate,visibility]'
        }`}
      >
        {rendered ? (
          <MenuContents
            closeRef={closeRef}
            onClose={onClose}
            navigation={navigation}
            customer={customer}
            cartName={cartName}
            siteName={siteName}
            loginHref={loginHref}
          />
        ) : null}
      </div>
    </div>
  )
}

/** The menu's contents: the header with the close button, the navigation and the account links. */
function MenuContents({
  closeRef,
  onClose,
  navigation,
  customer,
  cartName,
  siteName,
  loginHref,
}: {
  closeRef: RefObject<HTMLButtonElement | null>
  onClose: (restoreFocus: boolean) => void
  navigation: readonly NavItem[]
  customer: CustomerSummary | null
  cartName: string
  siteName: string
  loginHref: string
}) {
  return (
    <>
      <div className="mm-head">
        <span className="font-semibold">{siteName}</span>
        <button
          ref={closeRef}
          type="button"
          onClick={() => onClose(true)}
          className="mm-close"
          aria-label="Close menu"
        >
          <CloseIcon />
        </button>
      </div>
      {navigation.length > 0 && (
        <nav aria-label="Mobile">
          <ul className="py-2">
            {navigation.map((item) => (
              <li key={item.url + item.label}>
                <Link href={item.url} className="mm-link">
                  {item.label}
                </Link>
                {item.children?.length ? (
                  <ul className="pb-1">
                    {item.children.map((child) => (
                      <li key={child.url + child.label}>
                        <Link href={child.url} className="mm-sublink">
                          {child.label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </nav>
      )}
      <div className="mm-foot">
        {customer ? (
          <>
            <p className="mm-title">My Account</p>
            <ul>
              {accountLinks(cartName).map((l) => (
                <li key={l.href} hidden={l.hidden}>
                  <Link href={l.href} className="mm-sublink">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
            <button
              type="button"
              onClick={() => {
                onClose(false)
                logOut()
              }}
              className="mm-logout"
            >
              Log Out
            </button>
          </>
        ) : (
          <Link href={loginHref} className="mm-link">
            Login
          </Link>
        )}
      </div>
    </>
  )
}
