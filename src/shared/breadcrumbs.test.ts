import { describe, expect, it } from 'vitest'
import type { Breadcrumb } from './page-props.ts'
import type { SafeHtml } from './safe-html.ts'
import {
  breadcrumbJsonLd,
  breadcrumbText,
  breadcrumbTrail,
  isBreadcrumbLink,
  serializeJsonLd,
  type TrailEntry,
} from './breadcrumbs.ts'

const home: Breadcrumb = { name: 'Home' as SafeHtml, url: '/' }
const signs: Breadcrumb = { name: 'Signs' as SafeHtml, url: '/signs' }
const fire: Breadcrumb = { name: 'Fire <b>Safety</b>' as SafeHtml, url: '/signs/fire' }
const exit: Breadcrumb = { name: 'Fire Exit Sign' as SafeHtml, url: null }

function names(entries: TrailEntry[]): string[] {
  return entries.map((e) => (e.kind === 'ellipsis' ? '…' : e.crumb.name))
}

describe('breadcrumbTrail', () => {
  it('shows the whole trail on wide screens', () => {
    expect(names(breadcrumbTrail([home, signs, fire, exit], false))).toEqual([
      'Home',
      'Signs',
      'Fire <b>Safety</b>',
      'Fire Exit Sign',
    ])
  })

  it('collapses a trail of more than two to an ellipsis plus the last two on narrow screens', () => {
    const trail = breadcrumbTrail([home, signs, fire, exit], true)
    expect(names(trail)).toEqual(['…', 'Fire <b>Safety</b>', 'Fire Exit Sign'])
    expect(trail[0]).toEqual({ kind: 'ellipsis', hidden: 2 })
  })

  it('collapses a trail of exactly three on narrow screens', () => {
    expect(names(breadcrumbTrail([home, signs, exit], true))).toEqual(['…', 'Signs', 'Fire Exit Sign'])
  })

  it('does not collapse a trail of two or fewer, even on narrow screens', () => {
    expect(names(breadcrumbTrail([home, exit], true))).toEqual(['Home', 'Fire Exit Sign'])
    expect(names(breadcrumbTrail([exit], true))).toEqual(['Fire Exit Sign'])
    expect(breadcrumbTrail([], true)).toEqual([])
  })

  it('marks only the last item as the current page', () => {
    const trail = breadcrumbTrail([home, signs, exit], false)
    expect(trail.map((e) => e.kind === 'crumb' && e.isCurrent)).toEqual([false, false, true])
  })

  it('never makes the last item a link, even when it has a url', () => {
    const trail = breadcrumbTrail([home, { name: 'Signs' as SafeHtml, url: '/signs' }], false)
    expect(trail.map(isBreadcrumbLink)).toEqual([true, false])
  })

  it('renders earlier items without a url as text', () => {
    const trail = breadcrumbTrail([home, { name: 'Group' as SafeHtml, url: null }, exit], false)
    expect(trail.map(isBreadcrumbLink)).toEqual([true, false, false])
  })
})

describe('breadcrumbText', () => {
  it('drops the allowed formatting tags and turns line breaks into spaces', () => {
    expect(breadcrumbText('Fire <strong>Exit</strong><br/>Signs <em>&amp;</em> <i>more</i>')).toBe(
      'Fire Exit Signs & more',
    )
  })

  it('decodes numeric entities', () => {
    expect(breadcrumbText('Caf&#233; &#x26; Bar')).toBe('Café & Bar')
  })
})

describe('breadcrumbJsonLd', () => {
  it('builds a schema.org BreadcrumbList with positions, plain names and absolute urls', () => {
    expect(breadcrumbJsonLd([home, fire, exit], 'https://shop.example')).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home' as SafeHtml, item: 'https://shop.example/' },
        {
          '@type': 'ListItem',
          position: 2,
          name: 'Fire Safety' as SafeHtml,
          item: 'https://shop.example/signs/fire',
        },
        { '@type': 'ListItem', position: 3, name: 'Fire Exit Sign' as SafeHtml },
      ],
    })
  })
})

describe('serializeJsonLd', () => {
  it('escapes < so the data cannot close the script element', () => {
    const json = serializeJsonLd({ name: '</script><script>alert(1)</script>' as SafeHtml })
    expect(json).not.toContain('<')
    expect(json).toContain('\\u003c/script')
  })

  it('produces JSON that parses back to the same value', () => {
    const value = { name: 'a < b > c & d \u2028 e' as SafeHtml }
    expect(JSON.parse(serializeJsonLd(value))).toEqual(value)
  })
})
