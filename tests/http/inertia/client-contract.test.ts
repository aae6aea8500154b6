/**
 * The client contract: what the server embeds in HTML is read back by the real
 * `getInitialPageFromDOM` of @inertiajs/core, in a DOM parsed the way a browser parses it.
 */
import { buildSSRBody, getInitialPageFromDOM } from '@inertiajs/core'
import { Window } from 'happy-dom'
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { clientSideBody, type Page } from '../../../src/server/inertia/page.ts'
import { createTestApp, inertiaHeaders } from '../../support/inertia-testing.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const hostile = {
  title: 'Mug </script><script>alert(1)</script>',
  comment: '<!-- <script> --> & &amp; "quotes" \'single\'',
  path: '/a/b/../c?x=1&y=2#frag',
  separators: 'line\u2028para\u2029end',
  unicode: 'Grüße 🎉 \\ backslash',
  nested: { html: '<img src=x onerror=alert(2)>', list: ['</SCRIPT >', '</scr' + 'ipt>'] },
}

/** Parses HTML like a browser (without running scripts) and reads the page via the real client helper. */
function readPageAsTheClientDoes(html: string, id = 'app'): { page: unknown; scripts: number } {
  const window = new Window({ url: 'http://localhost/', settings: { disableJavaScriptEvaluation: true } })
  window.document.write(html)
  const globals = globalThis as Record<string, unknown>
  const previous = { window: globals.window, document: globals.document }
  globals.window = window
  globals.document = window.document
  try {
    return {
      page: getInitialPageFromDOM(id),
      scripts: window.document.querySelectorAll('script').length,
    }
  } finally {
    globals.window = previous.window
    globals.document = previous.document
    void window.happyDOM.close()
  }
}

describe('client contract', () => {
  it('round-trips the embedded page through getInitialPageFromDOM deep-equal to the JSON page', async () => {
    app = await createTestApp({ share: () => ({ site: { name: 'Shop' } }) }, (a) => {
      a.get('/products/:id', (req, reply) => {
        req.inertia.flash('success', 'Saved </script>')
        return reply.inertia.render('Products/Show', hostile)
      })
    })
    const html = await app.inject({ method: 'GET', url: '/products/7?ref=/home' })
    const json = await app.inject({
      method: 'GET',
      url: '/products/7?ref=/home',
      headers: inertiaHeaders({ version: '1' }),
    })
    const { page, scripts } = readPageAsTheClientDoes(html.body)
    expect(scripts).toBe(1)
    const expected = {
      component: 'Products/Show',
      props: { site: { name: 'Shop' }, ...hostile, errors: {} },
      url: '/products/7?ref=/home',
      version: '1',
      sharedProps: ['site', 'errors'],
      flash: { success: 'Saved </script>' },
    }
    expect(page).toEqual(expected)
    expect(json.json()).toEqual(expected)
  })

  it('prevents a prop containing </script><script>alert(1) from breaking out of the script element', async () => {
    app = await createTestApp({}, (a) => {
      a.get('/', (req, reply) => reply.inertia.render('Home', hostile))
    })
    const html = (await app.inject({ method: 'GET', url: '/' })).body
    expect(html).not.toContain('alert(1)</script>')
    expect(html.match(/<\/script>/g)).toHaveLength(1)
    expect(html.toLowerCase().match(/<\/script/g)).toHaveLength(1)
    expect(html).not.toContain('<!--')
    expect(html).not.toContain('<img')
    const { page, scripts } = readPageAsTheClientDoes(html)
    expect(scripts).toBe(1)
    expect((page as Page).props).toEqual({ ...hostile, errors: {} })
  })

  it('serialises like the SSR body of @inertiajs/core, less its escaped slashes (ADR 0117)', () => {
    const page: Page = { component: 'Home', props: { ...hostile, errors: {} }, url: '/?a=/b', version: '1' }
    const ours = clientSideBody(page)
    const theirs = buildSSRBody('app', page as never, '')
    const script = (s: string) => s.slice(0, s.indexOf('</script>') + '</script>'.length)
    // The one difference: '/' is written as itself, not '\/' (both parse to the same page).
    expect(script(ours)).toBe(script(theirs).replaceAll('\\/', '/'))
    expect(script(ours)).not.toContain('\\/')
  })

  it('reads the page from a custom mount id', async () => {
    app = await createTestApp({ rootId: 'shop' }, (a) => {
      a.get('/', (req, reply) => reply.inertia.render('Home', { a: 1 }))
    })
    const html = (await app.inject({ method: 'GET', url: '/' })).body
    expect(readPageAsTheClientDoes(html, 'shop').page).toMatchObject({ component: 'Home', props: { a: 1 } })
  })
})
