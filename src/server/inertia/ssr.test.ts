import { describe, expect, it, vi } from 'vitest'
import type { Page } from './page.ts'
import { createModuleSsrRenderer, type SsrContext } from './ssr.ts'

const page: Page = { component: 'Home', props: { errors: {} }, url: '/', version: '1' }

function context(): SsrContext & { errors: unknown[] } {
  const errors: unknown[] = []
  return { errors, log: { error: (obj: unknown) => errors.push(obj) } as unknown as SsrContext['log'] }
}

describe('createModuleSsrRenderer', () => {
  it('renders the page with the module default export', async () => {
    const render = vi.fn(async (p: Page) => ({
      head: ['<title data-inertia="">x</title>'],
      body: `<div>${p.component}</div>`,
    }))
    const ssr = createModuleSsrRenderer(async () => ({ default: render }))
    await expect(ssr(page, context())).resolves.toEqual({
      head: ['<title data-inertia="">x</title>'],
      body: '<div>Home</div>',
    })
    expect(render).toHaveBeenCalledWith(page)
  })

  it('logs a throwing render and returns null so the page is rendered on the client', async () => {
    const onError = vi.fn()
    const ssr = createModuleSsrRenderer(
      async () => ({
        default: () => {
          throw new ReferenceError('window is not defined')
        },
      }),
      { onError },
    )
    const ctx = context()
    await expect(ssr(page, ctx)).resolves.toBeNull()
    expect(onError).toHaveBeenCalledOnce()
    expect(ctx.errors[0]).toMatchObject({ component: 'Home', url: '/', ssrErrorType: 'browser-api' })
  })

  it('treats a failing module load or a malformed result as a failure', async () => {
    const ctx = context()
    const failingLoad = createModuleSsrRenderer(() => Promise.reject(new Error('no bundle')))
    await expect(failingLoad(page, ctx)).resolves.toBeNull()
    const malformed = createModuleSsrRenderer(async () => ({ default: async () => ({ body: 1 }) as never }))
    await expect(malformed(page, ctx)).resolves.toBeNull()
    expect(ctx.errors).toHaveLength(2)
  })

  it('prepends extra head tags', async () => {
    const ssr = createModuleSsrRenderer(
      async () => ({ default: async () => ({ head: ['<title>x</title>'], body: '' }) }),
      {
        extraHead: () => ['<link rel="stylesheet" href="/a.css">'],
      },
    )
    await expect(ssr(page, context())).resolves.toEqual({
      head: ['<link rel="stylesheet" href="/a.css">', '<title>x</title>'],
      body: '',
    })
  })
})
