import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SiteTheme } from '../../shared/page-props.ts'
import {
  CSS_FALLBACK_DEFAULTS,
  LAYOUT_DEFAULTS,
  parseColour,
  readableOn,
  safeStyleText,
  themeStyle,
} from './theme.ts'

const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url))

/** Every `var(--name...)` in the client's CSS and components: [file, fallback or null]. */
function usesOf(name: string): [string, string | null][] {
  const found: [string, string | null][] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.(css|tsx?)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8')
        const re = new RegExp(`var\\(${name}\\s*(?:,\\s*([^)]*))?\\)`, 'g')
        for (const m of text.matchAll(re)) found.push([path, m[1]?.trim() ?? null])
      }
    }
  }
  walk(CLIENT_DIR)
  return found
}

const theme: SiteTheme = {
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
}

describe('theme', () => {
  it('turns site settings into CSS custom properties', () => {
    const style = themeStyle(theme) as Record<string, string>
    expect(style['--page-width']).toBe('1280px')
    expect(style['--font-family']).toBe('Arial, sans-serif')
    expect(style['--colour-primary']).toBe('#003366')
    expect(style['--colour-badge']).toBe('red')
    expect(style['--sidebar-border-width']).toBe('1px')
  })

  it('leaves out the layout defaults the CSS falls back to anyway', () => {
    const style = themeStyle(theme) as Record<string, string>
    for (const name of ['--nav-height', '--nav-font-size', '--mobile-menu-width', '--sidebar-width']) {
      expect(name in CSS_FALLBACK_DEFAULTS).toBe(true)
    }
    for (const name of Object.keys(CSS_FALLBACK_DEFAULTS)) expect(style).not.toHaveProperty(name)
  })

  it("matches every one it leaves out with the CSS's fallback, so the computed style is the same", () => {
    for (const [name, value] of Object.entries(CSS_FALLBACK_DEFAULTS)) {
      const uses = usesOf(name)
      expect(uses.length, `${name} is used`).toBeGreaterThan(0)
      // Each use has a fallback, and it is the default (hex colours in either case).
      for (const [file, fallback] of uses)
        expect(fallback?.toLowerCase(), `${name} in ${file}`).toBe(value.toLowerCase())
    }
  })

  it('sizes the main menu in rem, so its links and bar grow with the text size (42 px and 18 px at 16 px)', () => {
    expect(LAYOUT_DEFAULTS.navHeight).toBe('2.625rem')
    expect(LAYOUT_DEFAULTS.navFontSize).toBe('1.125rem')
    for (const name of ['--nav-height', '--nav-font-size'])
      for (const [file, fallback] of usesOf(name)) expect(fallback, `${name} in ${file}`).toMatch(/rem$/)
  })

  it('falls back to a red badge when the setting is empty', () => {
    const style = themeStyle({ ...theme, colours: { ...theme.colours, badge: '' } }) as Record<string, string>
    expect(style['--colour-badge']).toBe('red')
  })

  it('picks the text colour with the better contrast for a background', () => {
    expect(readableOn('#003366')).toBe('#fff')
    expect(readableOn('#ffcc00')).toBe('#000')
    // White on pure red is below 4.5:1, black passes.
    expect(readableOn('red')).toBe('#000')
    expect(readableOn('var(--x)', '#fff')).toBe('#fff')
  })

  it('parses short hex, long hex and rgb colours', () => {
    expect(parseColour('#fff')).toEqual([255, 255, 255])
    expect(parseColour('#7cad0a')).toEqual([124, 173, 10])
    expect(parseColour('rgb(1, 2, 3)')).toEqual([1, 2, 3])
    expect(parseColour('nonsense')).toBeNull()
  })

  it('keeps site CSS from closing its style element', () => {
    expect(safeStyleText('a{}</style><script>x</script>')).not.toMatch(/<\/style/i)
  })
})
