/**
 * The frame of every account page (spec §2 "Customer area"): the greeting, a log-out button, the
 * breadcrumb 'My Account Home', the account navigation (two-factor included) and a live region
 * for the page's success and error messages.
 */
import { Head, Link, router } from '@inertiajs/react'
import type { ReactNode } from 'react'
import { ACCOUNT_TEXT } from '../../../shared/account-text.ts'
import { escapeHtml } from '../../../shared/safe-html.ts'
import { pageTitle, type TitleFor } from '../../../shared/titles.ts'
import { accountLinks } from '../../layout/account-links.ts'
import { joinErrors } from '../../lib/json-client.ts'
import { useShared } from '../../lib/shared-props.ts'
import { Breadcrumbs } from '../Breadcrumbs.tsx'

export interface Notice {
  kind: 'success' | 'error'
  text: string
}

export function AccountLayout({
  title,
  titleFor,
  greeting,
  here,
  notice,
  children,
}: {
  title: string
  titleFor: TitleFor
  greeting: string
  /** The account link this page belongs to */
  here: string
  notice?: Notice | null
  children: ReactNode
}) {
  const { site } = useShared()
  const home = here === '/customer'
  const crumbs = home
    ? [{ name: escapeHtml(ACCOUNT_TEXT.home), url: null }]
    : [
        { name: escapeHtml(ACCOUNT_TEXT.home), url: '/customer' },
        { name: escapeHtml(title), url: null },
      ]
  const links = [
    ...accountLinks(site?.cartName ?? 'Basket').filter((l) => !l.hidden),
    { href: '/customer/two-factor', label: 'Two-Factor Authentication' },
  ]
  return (
    <>
      <Head title={pageTitle(titleFor, site?.name)} />
      <Breadcrumbs items={crumbs} className="mb-4" />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-lg" data-testid="account-greeting">
          {greeting}
        </p>
        <button
          type="button"
          onClick={() => router.post('/logout')}
          className="rounded-md border border-gray-400 bg-white px-4 py-2 text-sm font-semibold hover:bg-gray-50"
        >
          Log Out
        </button>
      </div>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-[14rem_minmax(0,1fr)]">
        <nav aria-label="Your account" className="md:border-r md:border-gray-200 md:pr-4">
          <ul className="flex flex-wrap gap-2 md:flex-col md:gap-1">
            {links.map((l) => {
              const current = l.href === here
              return (
                <li key={l.href}>
                  <Link
                    href={l.href}
                    aria-current={current ? 'page' : undefined}
                    className={`block rounded px-3 py-2 text-sm ${current ? 'bg-primary font-semibold text-on-primary' : 'bg-gray-100 text-gray-900 hover:bg-gray-200 md:bg-transparent'}`}
                  >
                    {l.label}
                  </Link>
                </li>
              )
            })}
          </ul>
        </nav>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>
          <div role="status" aria-live="polite" className="mt-2">
            {notice ? (
              <p
                className={`rounded-md px-4 py-2 text-sm ${notice.kind === 'success' ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'}`}
                data-testid="account-notice"
              >
                {notice.text}
              </p>
            ) : null}
          </div>
          <div className="mt-4">{children}</div>
        </div>
      </div>
    </>
  )
}

export const smallButton =
  'inline-flex items-center justify-center rounded-md border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold text-gray-900 hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60'
export const mainButton =
  'inline-flex items-center justify-center rounded-md bg-primary px-4 py-2 text-sm font-semibold text-on-primary hover:brightness-95 disabled:cursor-not-allowed disabled:opacity-60'

/** The message of a failed JSON call: the fallback, then its field messages joined or its message. */
export function failureText(body: { message?: unknown; errors?: unknown } | null, fallback: string) {
  const detail = joinErrors(body, '')
  return detail ? `${fallback}: ${detail}` : fallback
}
