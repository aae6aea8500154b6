/**
 * The authentication layout (spec: "shows a logo linking to the root path"): the site's logo
 * above a narrow card, themed like the rest of the site, with the skip link and message boxes.
 */
import { InlineStyle } from '../components/SafeHtml.tsx'
import { Link } from '@inertiajs/react'
import type { ReactNode } from 'react'
import { MessagesProvider } from '../lib/messages.tsx'
import { useShared } from '../lib/shared-props.ts'
import { themeStyle } from '../lib/theme.ts'
import { MessageBoxes } from './MessageBoxes.tsx'
import { RouterMessages } from './RouterMessages.tsx'

export default function AuthLayout({ children }: { children?: ReactNode }) {
  const shared = useShared()
  const site = shared.site
  return (
    <MessagesProvider>
      <RouterMessages />
      <div
        className="site-root flex min-h-screen flex-col items-center bg-gray-100 px-4 py-8 text-text sm:justify-center"
        style={site ? themeStyle(site.theme) : undefined}
      >
        <a
          href="#main-content"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100] focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:text-black focus:shadow-lg"
        >
          Skip to main content
        </a>
        {site?.globalCSS ? <InlineStyle css={site.globalCSS} /> : null}
        <header>
          <Link href="/" className="inline-block" data-testid="auth-logo">
            {site?.logo ? (
              <img src={site.logo} alt={`${site.name} home`} className="h-16 w-auto" />
            ) : (
              <span className="text-2xl font-bold">{site?.name ?? 'Home'}</span>
            )}
          </Link>
        </header>
        <main
          id="main-content"
          tabIndex={-1}
          className="mt-6 w-full max-w-md rounded-lg bg-white px-6 py-6 shadow-md focus:outline-none"
        >
          {children}
        </main>
      </div>
      <MessageBoxes flash={shared.flash} />
    </MessagesProvider>
  )
}
