/** Logged-in customer's account menu (a disclosure button with the spec's account links). */
import { Link, router } from '@inertiajs/react'
import { useEffect, useId, useRef, useState } from 'react'
import type { CustomerSummary } from '../../shared/page-props.ts'
import { accountLinks } from './account-links.ts'
import { ChevronDownIcon, UserIcon } from './icons.tsx'

export function logOut(): void {
  router.post('/logout')
}

export function AccountMenu({ customer, cartName }: { customer: CustomerSummary; cartName: string }) {
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false)
        buttonRef.current?.focus()
      }
    }
    const stopNavigate = router.on('navigate', () => setOpen(false))
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      stopNavigate()
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        className="acct-btn"
      >
        <UserIcon className="text-xl" />
        <span className="acct-label">My Account</span>
        <ChevronDownIcon className="hidden md:block" />
      </button>
      <div
        id={menuId}
        hidden={!open}
        className="focus-on-page acct-menu"
        onClick={(e) => {
          if ((e.target as Element).closest('a')) setOpen(false)
        }}
      >
        <p className="acct-who">
          Signed in as <span className="font-semibold">{customer.firstName || customer.email}</span>
        </p>
        <ul className="acct-list">
          {accountLinks(cartName).map((l) => (
            <li key={l.href} hidden={l.hidden}>
              <Link href={l.href} className="acct-link">
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="acct-foot">
          <button type="button" onClick={logOut} className="acct-logout">
            Log Out
          </button>
        </div>
      </div>
    </div>
  )
}
