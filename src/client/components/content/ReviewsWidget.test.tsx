// @vitest-environment happy-dom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ReviewsWidget } from './ReviewsWidget.tsx'
import { VideoBlock } from './VideoBlock.tsx'
import { CustomerReviews } from '../product/CustomerReviews.tsx'
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | null = null
let host: HTMLElement

function mount(node: React.ReactNode) {
  host = document.createElement('div')
  document.body.appendChild(host)
  root = createRoot(host)
  act(() => root!.render(node))
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  act(() => root?.unmount())
  root = null
  document.head.querySelectorAll('script[data-reviews-widget]').forEach((s) => s.remove())
  delete (window as unknown as Record<string, unknown>).ReviewsWidget
  vi.useRealTimers()
  document.body.innerHTML = ''
})

const configured = {
  _uid: 'r',
  component: 'reviews_widget',
  title: 'Reviews',
  config: { scriptUrl: 'https://widget.example/reviews.js', global: 'ReviewsWidget' },
}

describe('reviews widget', () => {
  it('renders nothing and loads no script when not configured', () => {
    mount(<ReviewsWidget blok={{ _uid: 'r', component: 'reviews_widget', config: null }} />)
    expect(host.innerHTML).toBe('')
    expect(document.querySelectorAll('script[data-reviews-widget]')).toHaveLength(0)
  })

  it('loads the script once and starts the widget when it appears within 5 s', () => {
    const init = vi.fn()
    mount(
      <>
        <ReviewsWidget blok={configured} />
        <ReviewsWidget blok={{ ...configured, _uid: 's' }} />
      </>,
    )
    expect(document.querySelectorAll('script[data-reviews-widget]')).toHaveLength(1)
    expect(document.querySelector('script[data-reviews-widget]')!.getAttribute('src')).toBe(
      'https://widget.example/reviews.js',
    )
    act(() => vi.advanceTimersByTime(2000))
    expect(init).not.toHaveBeenCalled()
    ;(window as unknown as Record<string, unknown>).ReviewsWidget = { init }
    act(() => vi.advanceTimersByTime(1000))
    expect(init).toHaveBeenCalledTimes(2)
    act(() => vi.advanceTimersByTime(5000))
    expect(init).toHaveBeenCalledTimes(2)
  })

  it('stops polling after 5 s', () => {
    const init = vi.fn()
    mount(<ReviewsWidget blok={configured} />)
    act(() => vi.advanceTimersByTime(5000))
    ;(window as unknown as Record<string, unknown>).ReviewsWidget = { init }
    act(() => vi.advanceTimersByTime(3000))
    expect(init).not.toHaveBeenCalled()
  })
})

describe('the Shelters layout’s customer reviews widget', () => {
  it('loads the site’s reviews script and starts the widget in its container, like the block', () => {
    const init = vi.fn()
    mount(<CustomerReviews sku="SH-1" config={configured.config} />)
    expect(document.querySelector('script[data-reviews-widget]')!.getAttribute('src')).toBe(
      'https://widget.example/reviews.js',
    )
    ;(window as unknown as Record<string, unknown>).ReviewsWidget = { init }
    act(() => vi.advanceTimersByTime(1000))
    expect(init).toHaveBeenCalledTimes(1)
    expect(init.mock.calls[0]![0]).toBe(host.querySelector('[data-reviews-widget="product"]'))
    expect(host.querySelector('[data-sku="SH-1"]')).not.toBeNull()
  })

  it('keeps its container but loads nothing when the site has no reviews script', () => {
    mount(<CustomerReviews sku="SH-1" config={null} />)
    expect(host.querySelector('[data-testid="customer-reviews"]')).not.toBeNull()
    expect(document.querySelectorAll('script[data-reviews-widget]')).toHaveLength(0)
  })
})

describe('video', () => {
  it('creates the player iframe only after the play button is pressed', () => {
    mount(
      <VideoBlock
        blok={{ _uid: 'v', component: 'video', provider: 'youtube', video_id: 'aqz-KE-bpKQ', title: 'Tour' }}
      />,
    )
    expect(host.querySelector('iframe')).toBeNull()
    act(() => host.querySelector('button')!.click())
    expect(host.querySelector('iframe')!.getAttribute('src')).toBe(
      'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?autoplay=1&rel=0',
    )
  })

  it('renders nothing for an id that is not a video id', () => {
    mount(
      <VideoBlock blok={{ _uid: 'v', component: 'video', provider: 'youtube', video_id: '"><script>' }} />,
    )
    expect(host.innerHTML).toBe('')
  })
})
