import { expect, test } from '@playwright/test'

const IMMUTABLE = 'public, max-age=31536000, immutable'

test.describe('compression and caching', () => {
  test('serves the hashed scripts of a page precompressed with Brotli, or gzip, and cached as immutable', async ({
    request,
  }) => {
    const html = await (await request.get('/')).text()
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!)
    expect(scripts.length).toBeGreaterThan(0)
    for (const src of scripts) {
      const br = await request.get(src, { headers: { 'accept-encoding': 'br' } })
      expect(br.status(), src).toBe(200)
      expect(br.headers()['content-encoding'], src).toBe('br')
      expect(br.headers()['cache-control'], src).toBe(IMMUTABLE)
      expect(br.headers()['vary']?.toLowerCase(), src).toContain('accept-encoding')
      const gzip = await request.get(src, { headers: { 'accept-encoding': 'gzip' } })
      expect(gzip.headers()['content-encoding'], src).toBe('gzip')
      // Both decode to the same script.
      expect((await gzip.body()).equals(await br.body()), src).toBe(true)
    }
  })

  test('compresses the server-rendered page for the browser, which hydrates it without errors', async ({
    page,
  }) => {
    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text())
    })
    page.on('pageerror', (e) => problems.push(e.message))
    const scripts: { url: string; encoding: string | undefined; cache: string | undefined }[] = []
    page.on('response', async (res) => {
      if (new URL(res.url()).pathname.startsWith('/assets/') && res.url().endsWith('.js')) {
        const headers = await res.allHeaders()
        scripts.push({
          url: res.url(),
          encoding: headers['content-encoding'],
          cache: headers['cache-control'],
        })
      }
    })
    const document = await page.goto('/')
    const headers = await document!.allHeaders()
    expect(['br', 'gzip']).toContain(headers['content-encoding'])
    expect(headers['vary']?.toLowerCase()).toContain('accept-encoding')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbour Safety Supplies')
    await page.waitForLoadState('networkidle')
    expect(scripts.length).toBeGreaterThan(0)
    for (const s of scripts) {
      expect(['br', 'gzip'], s.url).toContain(s.encoding)
      expect(s.cache, s.url).toBe(IMMUTABLE)
    }
    expect(problems).toEqual([])
  })
})
