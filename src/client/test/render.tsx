/**
 * Test helper: renders a page component inside Inertia's real <App> (page context, head manager,
 * default layout) into happy-dom. Only for *.test.tsx files running with happy-dom.
 */
import { App } from '@inertiajs/react'
import { act, type ComponentType } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { SiteProps } from '../../shared/page-props.ts'
import { layout, type InertiaPage } from '../inertia.ts'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export const testSite: SiteProps = {
  id: 1,
  name: 'Test Shop',
  host: 'localhost',
  logo: null,
  currency: 'GBP',
  locale: 'en-GB',
  cartName: 'Basket',
  tax: { name: 'VAT', rate: 20, pricesIncludeTax: false },
  calendar: 'england-and-wales',
  company: { name: 'Test Shop Ltd', number: '01234567', registeredAddress: '1 Test Street', vatNumber: '' },
  adPixel: false,
  contactNumber: '01234 567890',
  contactEmail: 'help@example.com',
  theme: {
    pageWidth: '1280px',
    fontFamily: 'Arial, sans-serif',
    fontWeight: '400',
    padding: '1rem',
    colours: {
      primary: '#003366',
      secondary: '#ffcc00',
      accent: '#e30613',
      text: '#222222',
      background: '#ffffff',
      headerBackground: '#ffffff',
      headerText: '#111111',
      badge: 'red',
      addToCart: '#7cad0a',
    },
  },
  globalCSS: '',
  headerMessage: null,
  guarantees: [],
  navigation: [{ label: 'Signs', url: '/signs' }],
  stickyHeaderOffset: 0,
  showSidebar: false,
  baseUrl: 'https://shop.example',
}

export function makePage(
  component: string,
  props: Record<string, unknown> = {},
  extra: Partial<InertiaPage> = {},
): InertiaPage {
  return {
    component,
    url: '/',
    version: '1',
    rescuedProps: [],
    flash: {},
    props: { site: testSite, auth: { customer: null }, cart: { count: 0, total: 0 }, errors: {}, ...props },
    ...extra,
  }
}

/** Controls what matchMedia reports (per query) for the next renders. */
export function mockMatchMedia(matches: (query: string) => boolean): void {
  window.matchMedia = ((query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia
}

export interface Rendered {
  container: HTMLElement
  unmount: () => void
}

export async function renderPage(
  component: ComponentType<never>,
  page: InertiaPage,
  options: { storedCart?: boolean } = {},
): Promise<Rendered> {
  // The layout initialises a browser without a stored cart with POST /cart/init; page tests start
  // with one stored so they make no network call (src/client/lib/local-cart.test.tsx tests it).
  if (options.storedCart !== false && !window.sessionStorage.getItem('cart'))
    window.sessionStorage.setItem('cart', JSON.stringify({ id: null, count: 0, total: 0 }))
  const container = document.createElement('div')
  document.body.appendChild(container)
  let root: Root | undefined
  await act(async () => {
    root = createRoot(container)
    root.render(
      <App
        initialPage={page as never}
        initialComponent={component as never}
        resolveComponent={(() => component) as never}
        titleCallback={(t: string) => t}
        defaultLayout={layout as never}
      />,
    )
  })
  return {
    container,
    unmount: () => {
      act(() => root?.unmount())
      container.remove()
    },
  }
}
