import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ErrorList } from './fields.tsx'

describe('the error list of the login, two-factor and other account forms', () => {
  it('is a list inside an alert box, so its items stay list items (axe: listitem)', () => {
    const html = renderToStaticMarkup(
      <ErrorList errors={{ email: 'These credentials do not match our records.', code: 'Wrong code.' }} />,
    )
    expect(html).toMatch(/^<div [^>]*role="alert"[^>]*data-testid="error-list"[^>]*><ul[^>]*><li>/)
    expect(html).not.toMatch(/<ul[^>]*role=/)
    expect(html.match(/<li>/g)).toHaveLength(2)
  })

  it('shows nothing without errors', () => {
    expect(renderToStaticMarkup(<ErrorList errors={{ email: undefined }} />)).toBe('')
  })
})
