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
        className="flex items-center gap-1.5 rounded px-2 py-1.5 hover:bg-black/5"
      >
        <UserIcon className="text-xl" />
        <span className="sr-only md:not-sr-only">My Account</span>
        <ChevronDownIcon className="hidden md:block" />
      </button>
      <div
        id={menuId}
        hidden={!open}
        className="focus-on-page absolute right-0 z-50 mt-2 w-64 rounded-md border border-gray-200 bg-white py-2 text-gray-900 shadow-lg"
        onClick={(e) => {
          if ((e.target as Element).closest('a')) setOpen(false)
        }}
      >
        <p className="px-4 pb-2 text-sm text-gray-700">
          Signed in as <span className="font-semibold">{customer.firstName || customer.email}</span>
        </p>
        <ul className="border-t border-gray-100 pt-1">
          {accountLinks(cartName).map((l) => (
            <li key={l.href} hidden={l.hidden}>
              <Link href={l.href} className="block px-4 py-2 text-sm hover:bg-gray-100">
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="mt-1 border-t border-gray-100 pt-1">
          <button
            type="button"
            onClick={logOut}
            className="block w-full px-4 py-2 text-left text-sm hover:bg-gray-100"
          >
            Log Out
          </button>
        </div>
      </div>
    </div>
  )
}
