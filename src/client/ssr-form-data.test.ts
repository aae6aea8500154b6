import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const moduleUrl = new URL('./ssr-form-data.ts', import.meta.url).href

/**
 * Runs `body` in a fresh Node process (this one has undici loaded already) with the module
 * imported as `SsrFormData` and `undiciLoaded()` telling whether Node has loaded undici yet.
 */
function inFreshNode(body: string): unknown {
  const script = `
    const { SsrFormData } = await import(${JSON.stringify(moduleUrl)})
    const undiciLoaded = () => process.moduleLoadList.some((m) => m.includes('undici'))
    const result = await (async () => { ${body} })()
    process.stdout.write(JSON.stringify(result))
  `
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
  })
  return JSON.parse(out)
}

describe('the FormData of the SSR bundle', () => {
  it('says plain objects, arrays, strings and nothing are not FormData without loading undici', () => {
    const result = inFreshNode(`
      const answers = [{}, { q: 'sign' }, [], 'a=1', null, undefined, 3].map((v) => v instanceof SsrFormData)
      return { answers, undiciLoaded: undiciLoaded() }
    `)
    expect(result).toEqual({
      answers: [false, false, false, false, false, false, false],
      undiciLoaded: false,
    })
  })

  it('recognises a real FormData as one', () => {
    const result = inFreshNode(`
      const form = new globalThis.FormData()
      return [form instanceof SsrFormData, new URLSearchParams() instanceof SsrFormData]
    `)
    expect(result).toEqual([true, false])
  })

  it('builds a real FormData when constructed', () => {
    const result = inFreshNode(`
      const form = new SsrFormData()
      form.append('name', 'sign')
      return [form instanceof globalThis.FormData, form instanceof SsrFormData, form.get('name')]
    `)
    expect(result).toEqual([true, true, 'sign'])
  })
})
