import { describe, expect, it } from 'vitest'
import { presentValue, readMorePreview, truncateDoc } from './content.presenter.ts'

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] })
const doc = (...content: unknown[]) => ({ type: 'doc', content })
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ')

describe('read-more', () => {
  it('previews the first characters when the text is well over the limit', () => {
    const text = doc(paragraph(words(100)))
    const preview = readMorePreview({ _uid: 'a', component: 'text', show_more: true, limit: 100, text })
    expect(preview).toMatch(/^<p>word0 word1 .*…<\/p>$/)
    expect(preview!.replace(/<[^>]+>/g, '').length).toBeLessThanOrEqual(101)
  })

  it('is skipped when the text is within 10 percent over the limit', () => {
    const text = doc(paragraph('x'.repeat(110)))
    expect(readMorePreview({ _uid: 'a', component: 'text', show_more: true, limit: 100, text })).toBeNull()
    const longer = doc(paragraph('x'.repeat(111)))
    expect(
      readMorePreview({ _uid: 'a', component: 'text', show_more: true, limit: 100, text: longer }),
    ).not.toBeNull()
  })

  it('is skipped when the text holds tabs content, or show_more is off', () => {
    const tabs = doc(paragraph(words(100)), {
      type: 'blok',
      attrs: { body: [{ _uid: 't', component: 'tabs' }] },
    })
    expect(
      readMorePreview({ _uid: 'a', component: 'text', show_more: true, limit: 50, text: tabs }),
    ).toBeNull()
    expect(
      readMorePreview({
        _uid: 'a',
        component: 'text',
        show_more: false,
        limit: 50,
        text: doc(paragraph(words(100))),
      }),
    ).toBeNull()
  })

  it('cuts a document across paragraphs', () => {
    const cut = truncateDoc(doc(paragraph('abc def'), paragraph('ghi jkl mno')) as never, 10)
    expect(cut).toEqual(doc(paragraph('abc def'), paragraph('ghi…')) as never)
  })
})

describe('presenting blocks', () => {
  it('sanitises rich-text fields of any type and checks URL fields', () => {
    const out = presentValue({
      _uid: 'a',
      component: 'image',
      text: '<img src=x onerror=alert(1)><b>ok</b>',
      link: 'javascript:alert(1)',
      title: '<b>plain text, rendered as text</b>',
      image: { filename: '/media/a.jpg', alt: 'A' },
      _editable: '<!--#storyblok#{}-->',
    })
    expect(out).toEqual({
      _uid: 'a',
      component: 'image',
      text: '<img src="x" /><b>ok</b>',
      link: '',
      title: '<b>plain text, rendered as text</b>',
      image: { filename: '/media/a.jpg', alt: 'A' },
    })
  })
})
