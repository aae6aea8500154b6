// @vitest-environment happy-dom
import { act } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import type { GalleryItem } from '../../../shared/product.ts'
import { Gallery } from './Gallery.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const items: GalleryItem[] = [1, 2, 3, 4].map((n) => ({
  kind: 'image',
  file: `/media/p${n}.png`,
  alt: `Sign ${n}`,
}))

let container: HTMLElement | undefined
afterEach(() => container?.remove())

describe('product gallery', () => {
  it("renders only the first slide in the server's HTML, in a box of the slide's size", () => {
    const html = renderToString(<Gallery items={items} size={260} />)
    expect(html.match(/aria-roledescription="slide"/g)).toHaveLength(1)
    // The slide's size, asked for from the image service.
    expect(html).toContain('src="/img/media/p1.png?w=300&amp;h=300&amp;q=50&amp;fit=contain"')
    expect(html).not.toContain('src="/img/media/p2.png?w=300')
    expect(html).toMatch(/style="width:260px;height:260px/)
    // The controls and thumbnails are there from the start.
    expect(html).toContain('aria-label="Next image"')
    expect(html).toContain('src="/img/media/p3.png?w=80&amp;h=80&amp;q=50&amp;fit=contain"')
  })

  it('mounts the other slides in the browser, hidden behind the first', async () => {
    container = document.createElement('div')
    document.body.append(container)
    container.innerHTML = renderToString(<Gallery items={items} size={260} />)
    let root: Root | undefined
    await act(async () => {
      root = hydrateRoot(container!, <Gallery items={items} size={260} />)
    })
    const slides = [...container.querySelectorAll('[aria-roledescription="slide"]')]
    expect(slides.map((s) => s.getAttribute('aria-label'))).toEqual(['1 of 4', '2 of 4', '3 of 4', '4 of 4'])
    expect(slides.map((s) => s.hasAttribute('hidden'))).toEqual([false, true, true, true])
    await act(async () => root?.unmount())
  })
})
