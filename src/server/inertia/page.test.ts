import { describe, expect, it } from 'vitest'
import { buildPage, clientSideBody, serializePageForHtml, type Page } from './page.ts'

const page: Page = {
  component: 'Products/Show',
  props: { errors: {}, name: 'Mug </script><script>alert(1)</script>', url: 'https://x.test/a' },
  url: '/products/7?ref=home',
  version: 'v1',
}

describe('buildPage', () => {
  it('leaves out empty metadata, empty flash and false history flags', () => {
    const built = buildPage({
      component: 'Home',
      props: { errors: {} },
      url: '/',
      version: '1',
      metadata: {},
      flash: {},
      clearHistory: false,
      encryptHistory: false,
      preserveFragment: false,
    })
    expect(built).toEqual({ component: 'Home', props: { errors: {} }, url: '/', version: '1' })
  })

  it('orders fields like the reference adapter and keeps set flags', () => {
    const built = buildPage({
      component: 'Home',
      props: { errors: {} },
      url: '/',
      version: '1',
      metadata: {
        onceProps: { a: { prop: 'a', expiresAt: null } },
        sharedProps: ['site'],
        mergeProps: ['x'],
      },
      flash: { success: 'ok' },
      clearHistory: true,
      encryptHistory: true,
      preserveFragment: true,
    })
    expect(Object.keys(built)).toEqual([
      'component',
      'props',
      'url',
      'version',
      'sharedProps',
      'mergeProps',
      'onceProps',
      'clearHistory',
      'encryptHistory',
      'flash',
      'preserveFragment',
    ])
  })
})

describe('serializePageForHtml', () => {
  it('escapes every less-than sign, without HTML entities, so no script end tag or comment can appear', () => {
    const hostile = { ...page, props: { ...page.props, name: '</script><!-- <b>' } }
    const json = serializePageForHtml(hostile)
    expect(json).not.toContain('<')
    expect(json).not.toContain('&lt;')
    expect(json).toContain('\\u003c/script>\\u003c!-- \\u003cb>')
    // Slashes are left alone: a byte each, and harmless without a '<' before them.
    expect(json).toContain('/products/7')
    expect(JSON.parse(json)).toEqual(hostile)
  })

  it('builds the client-side body with the script element and the mount div', () => {
    expect(clientSideBody(page)).toBe(
      `<script data-page="app" type="application/json">${serializePageForHtml(page)}</script><div id="app"></div>`,
    )
    expect(clientSideBody(page, 'shop')).toContain('<div id="shop"></div>')
  })
})
