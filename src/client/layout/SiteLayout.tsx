/**
 * The persistent default layout for every page (applied through createInertiaApp's `layout`
 * option, so it stays mounted across visits). Without `site` (unknown host, SiteSetup page) it
 * renders a bare layout: skip link, main content and the message boxes only.
 */
import { InlineStyle } from '../components/SafeHtml.tsx'
import type { ReactNode } from 'react'
import type { SiteProps } from '../../shared/page-props.ts'
import { MessagesProvider } from '../lib/messages.tsx'
import { VatProvider } from '../lib/vat.tsx'
import { useFocusOnVisit } from '../lib/focus-on-visit.ts'
import { useLocalCart } from '../lib/local-cart.ts'
import { useShared, type Shared } from '../lib/shared-props.ts'
import { themeStyle } from '../lib/theme.ts'
import { Footer } from './Footer.tsx'
import { GuaranteesBar } from './GuaranteesBar.tsx'
import { Header } from './Header.tsx'
import { HeaderMessage } from './HeaderMessage.tsx'
import { MessageBoxes } from './MessageBoxes.tsx'
import { RouterMessages } from './RouterMessages.tsx'
import { Sidebar } from './Sidebar.tsx'

function SkipLink() {
  return (
    <a href="#main-content" className="skip-link">
      Skip to main content
    </a>
  )
}

function Main({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <main id="main-content" tabIndex={-1} className={className ? `shell-main ${className}` : 'shell-main'}>
      {children}
    </main>
  )
}

function FullLayout({
  site,
  shared,
  children,
  auth = false,
}: {
  site: SiteProps
  shared: Shared
  children: ReactNode
  /** The sign-in pages: no sidebar, the page in a narrow card on a light background */
  auth?: boolean
}) {
  const message = site.headerMessage
  return (
    <div className="site-root shell" style={themeStyle(site.theme)}>
      <SkipLink />
      {site.globalCSS ? <InlineStyle css={site.globalCSS} /> : null}
      {message?.display ? <HeaderMessage message={message} /> : null}
      {site.guarantees.length > 0 ? <GuaranteesBar guarantees={site.guarantees} /> : null}
      <Header site={site} customer={shared.customer} cart={shared.cart} />
      {auth ? (
        <div className="shell-auth">
          <Main className="mx-auto w-full max-w-md">
            <div className="shell-card">{children}</div>
          </Main>
        </div>
      ) : (
        <div className="shell-body">
          {site.showSidebar ? <Sidebar items={site.navigation} /> : null}
          <Main>{children}</Main>
        </div>
      )}
      <Footer site={site} />
      <MessageBoxes flash={shared.flash} />
    </div>
  )
}

function BareLayout({ shared, children }: { shared: Shared; children: ReactNode }) {
  return (
    <div className="site-root shell">
      <SkipLink />
      <div className="shell-bare">
        <Main>{children}</Main>
      </div>
      <MessageBoxes flash={shared.flash} />
    </div>
  )
}

/**
 * The shop's layout. `auth` is the sign-in pages' variant (AuthLayout): the same header with the
 * logo linking home, the basket and the footer, and the form in a card.
 */
export function ShopLayout({ children, auth = false }: { children?: ReactNode; auth?: boolean }) {
  const shared = useShared()
  useFocusOnVisit()
  // Spec §3/§4: the cart (and the customer) recorded in session storage, /cart/init when none.
  useLocalCart(shared.cart, shared.site ? shared.customer : null, shared.site !== null)
  return (
    <MessagesProvider>
      <VatProvider tax={shared.site?.tax}>
        <RouterMessages />
        {shared.site ? (
          <FullLayout site={shared.site} shared={shared} auth={auth}>
            {children}
          </FullLayout>
        ) : (
          <BareLayout shared={shared}>{children}</BareLayout>
        )}
      </VatProvider>
    </MessagesProvider>
  )
}

export default function SiteLayout({ children }: { children?: ReactNode }) {
  return <ShopLayout>{children}</ShopLayout>
}
