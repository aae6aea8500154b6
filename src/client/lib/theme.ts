/**
 * Site theme -> CSS custom properties on the layout root. Tailwind utilities read them through
 * the tokens declared in app.css (bg-primary, text-header-text, max-w-page, ...).
 */
import type { CSSProperties } from 'react'
import type { SiteTheme } from '../../shared/page-props.ts'

/** Spec §9 defaults for values the site settings do not carry. */
export const LAYOUT_DEFAULTS = {
  /** 42 px and 18 px at the browser's default text size, and growing with it (WCAG 1.4.4) */
  navHeight: '2.625rem',
  navFontSize: '1.125rem',
  mobileMenuWidth: '260px',
  sidebarWidth: '260px',
  sidebarBorderWidth: '1px',
  sidebarBorder: '#DDD',
  sidebarHeading: '#CCC',
  sidebarText: '#000',
  badge: 'red',
  addToCart: '#7cad0a',
} as const

/**
 * Layout defaults that app.css already falls back to with the same value (its `@theme inline`
 * block: `var(--nav-height, 2.625rem)`, `var(--sidebar-border, #ddd)` ...), so the layout root does
 * not write them: the computed style is the same without them, and they were about 150 bytes
 * of every page's HTML (issue 18). theme.test.ts checks each value against every fallback the
 * client's CSS and components give that property.
 * `--sidebar-border-width` has no fallback in the CSS and is still written.
 */
export const CSS_FALLBACK_DEFAULTS: Readonly<Record<string, string>> = {
  '--nav-height': LAYOUT_DEFAULTS.navHeight,
  '--nav-font-size': LAYOUT_DEFAULTS.navFontSize,
  '--mobile-menu-width': LAYOUT_DEFAULTS.mobileMenuWidth,
  '--sidebar-width': LAYOUT_DEFAULTS.sidebarWidth,
  '--sidebar-border': LAYOUT_DEFAULTS.sidebarBorder,
  '--sidebar-heading': LAYOUT_DEFAULTS.sidebarHeading,
  '--sidebar-text': LAYOUT_DEFAULTS.sidebarText,
}

const NAMED: Record<string, [number, number, number]> = {
  black: [0, 0, 0],
  white: [255, 255, 255],
  red: [255, 0, 0],
  green: [0, 128, 0],
  blue: [0, 0, 255],
  orange: [255, 165, 0],
  yellow: [255, 255, 0],
  navy: [0, 0, 128],
  grey: [128, 128, 128],
  gray: [128, 128, 128],
  purple: [128, 0, 128],
  maroon: [128, 0, 0],
  teal: [0, 128, 128],
}

/** Parses #rgb, #rrggbb, rgb()/rgba() and a few colour names; null when unknown. */
export function parseColour(value: string): [number, number, number] | null {
  const v = value.trim().toLowerCase()
  const named = NAMED[v]
  if (named) return named
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(v)?.[1]
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number]
  }
  const rgb = /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})/.exec(v)
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])]
  return null
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/** Black or white, whichever contrasts more with the background (WCAG ratio). */
export function readableOn(background: string, fallback = '#fff'): string {
  const rgb = parseColour(background)
  if (!rgb) return fallback
  const l = luminance(rgb)
  const withWhite = 1.05 / (l + 0.05)
  const withBlack = (l + 0.05) / 0.05
  return withBlack > withWhite ? '#000' : '#fff'
}

/** The custom properties set on the layout root for a site theme. */
export function themeStyle(theme: SiteTheme): CSSProperties {
  const c = theme.colours
  const badge = c.badge || LAYOUT_DEFAULTS.badge
  const addToCart = c.addToCart || LAYOUT_DEFAULTS.addToCart
  const vars: Record<string, string> = {
    '--page-width': theme.pageWidth,
    '--font-family': theme.fontFamily,
    '--font-weight': theme.fontWeight,
    '--padding': theme.padding,
    '--colour-primary': c.primary,
    '--colour-on-primary': readableOn(c.primary),
    '--colour-secondary': c.secondary,
    '--colour-on-secondary': readableOn(c.secondary),
    '--colour-accent': c.accent,
    '--colour-text': c.text,
    '--colour-background': c.background,
    '--colour-header-background': c.headerBackground,
    '--colour-header-text': c.headerText,
    '--colour-badge': badge,
    '--colour-on-badge': readableOn(badge),
    '--colour-add-to-cart': addToCart,
    '--colour-on-add-to-cart': readableOn(addToCart),
    // The other layout defaults are CSS_FALLBACK_DEFAULTS: app.css's fallbacks give the same.
    '--sidebar-border-width': LAYOUT_DEFAULTS.sidebarBorderWidth,
  }
  // Drop empty settings so the fallbacks in app.css apply.
  for (const key of Object.keys(vars)) if (!vars[key]) delete vars[key]
  return vars as CSSProperties
}

/** Site CSS goes into a <style> element; keep it from closing that element early. */
export function safeStyleText(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1')
}
