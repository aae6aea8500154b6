import { describe, expect, it } from 'vitest'
import type { SiteTheme } from '../../shared/page-props.ts'
import { parseColour, readableOn, safeStyleText, themeStyle } from './theme.ts'

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
    expect(style['--nav-height']).toBe('42px')
    expect(style['--sidebar-width']).toBe('260px')
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
