// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import PageComponent from '../pages/Page.tsx'
import { BREADCRUMB_COLLAPSE_QUERY } from '../../shared/breadcrumbs.ts'
import { HIDDEN_WHEN_NARROW, NARROW_ONLY } from './Breadcrumbs.tsx'
import { makePage, mockMatchMedia, renderPage, type Rendered } from '../test/render.tsx'

const trail = [
  { name: 'Home', url: '/' },
  { name: 'Signs', url: '/signs' },
  { name: 'Fire <b>Safety</b>', url: '/signs/fire' },
  { name: 'Exit Sign', url: null },
]

const contentPage = makePage('Page', {
  title: 'Exit Sign',
  metaDescription: 'A sign',
  breadcrumbs: trail,
  body: '<p>Body</p>',
})

let rendered: Rendered | undefined
afterEach(() => rendered?.unmount())

/**
 * The entries a screen of that width shows. The collapse is CSS (a media query on the classes),
 * which happy-dom does not apply: read the classes instead.
 */
function crumbTexts(container: HTMLElement, screen: 'wide' | 'narrow'): string[] {
  return [...container.querySelectorAll('nav[aria-label="Breadcrumb"] li')]
    .filter((li) =>
      screen === 'wide' ? !li.classList.contains(NARROW_ONLY) : !li.classList.contains(HIDDEN_WHEN_NARROW),
    )
    .map((li) => (li.textContent ?? '').replace('/', '').trim())
}

describe('Breadcrumbs', () => {
  it('shows the full trail on wide screens with the last item as the current page', async () => {
    mockMatchMedia(() => false)
    rendered = await renderPage(PageComponent, contentPage)
    const { container } = rendered
    expect(crumbTexts(container, 'wide')).toEqual(['Home', 'Signs', 'Fire Safety', 'Exit Sign'])
    const current = container.querySelector('[aria-current="page"]')
    expect(current?.textContent).toBe('Exit Sign')
    expect(current?.closest('a')).toBeNull()
    expect(container.querySelector('nav[aria-label="Breadcrumb"] b')?.textContent).toBe('Safety')
  })

  it('collapses to an ellipsis plus the last two items at 640 px or narrower', async () => {
    mockMatchMedia((q) => q === '(max-width: 640px)')
    rendered = await renderPage(PageComponent, contentPage)
    expect(crumbTexts(rendered.container, 'narrow')).toEqual(['…', 'Fire Safety', 'Exit Sign'])
    // The collapse is breadcrumbs.css's media query, the same width as the shared constant.
    expect(
      readFileSync(
        fileURLToPath(import.meta.url).replace(/Breadcrumbs\.test\.tsx$/, 'breadcrumbs.css'),
        'utf8',
      ),
    ).toContain(`@media ${BREADCRUMB_COLLAPSE_QUERY}`)
  })

  it('renders the same trail whatever the screen width, so the HTML from the server does not shift at hydration', async () => {
    mockMatchMedia(() => false)
    const wide = await renderPage(PageComponent, contentPage)
    const wideHtml = wide.container.querySelector('nav[aria-label="Breadcrumb"]')?.outerHTML
    wide.unmount()
    mockMatchMedia((q) => q === '(max-width: 640px)')
    rendered = await renderPage(PageComponent, contentPage)
    expect(rendered.container.querySelector('nav[aria-label="Breadcrumb"]')?.outerHTML).toBe(wideHtml)
  })

  it('shows every entry on a narrow screen once the ellipsis is pressed', async () => {
    mockMatchMedia((q) => q === '(max-width: 640px)')
    rendered = await renderPage(PageComponent, contentPage)
    const ellipsis = rendered.container.querySelector<HTMLButtonElement>(
      'nav[aria-label="Breadcrumb"] button',
    )
    expect(ellipsis?.getAttribute('aria-label')).toBe('Show 2 more breadcrumb links')
    await act(async () => ellipsis?.click())
    expect(crumbTexts(rendered.container, 'narrow')).toEqual(['Home', 'Signs', 'Fire Safety', 'Exit Sign'])
  })

  it('emits BreadcrumbList structured data into the document head', async () => {
    mockMatchMedia(() => false)
    rendered = await renderPage(PageComponent, contentPage)
    await new Promise((r) => setTimeout(r, 20)) // the head manager batches updates
    const script = document.head.querySelector('script[type="application/ld+json"]')
    const data = JSON.parse(script?.textContent ?? '{}')
    expect(data['@type']).toBe('BreadcrumbList')
    expect(data.itemListElement[2]).toEqual({
      '@type': 'ListItem',
      position: 3,
      name: 'Fire Safety',
      item: 'https://shop.example/signs/fire',
    })
  })
})
