import { describe, expect, it } from 'vitest'
import { plainText, renderNode } from './richtext.ts'

const doc = (...content: unknown[]) => ({ type: 'doc', content }) as never

describe('rich text to HTML', () => {
  it('renders Storyblok’s nodes and marks', () => {
    const html = renderNode(
      doc(
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'bold', marks: [{ type: 'bold' }] },
            { type: 'hard_break' },
            {
              type: 'text',
              text: 'link',
              marks: [{ type: 'link', attrs: { href: 'about-us', linktype: 'story', anchor: 'team' } }],
            },
            {
              type: 'text',
              text: 'mail',
              marks: [{ type: 'link', attrs: { href: 'a@b.c', linktype: 'email' } }],
            },
          ],
        },
        {
          type: 'bullet_list',
          content: [
            { type: 'list_item', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] },
          ],
        },
        { type: 'ordered_list', attrs: { order: 3 }, content: [] },
        { type: 'horizontal_rule' },
      ),
    )
    expect(html).toBe(
      '<h2>Title</h2><p><strong>bold</strong><br><a href="/about-us#team">link</a><a href="mailto:a@b.c">mail</a></p>' +
        '<ul><li><p>one</p></li></ul><ol start="3"></ol><hr>',
    )
  })

  it('escapes text and attribute values', () => {
    const html = renderNode(
      doc({
        type: 'paragraph',
        content: [
          { type: 'text', text: '<b>"x"</b>', marks: [{ type: 'link', attrs: { href: '"><script>' } }] },
        ],
      }),
    )
    expect(html).toBe('<p><a href="&quot;&gt;&lt;script&gt;">&lt;b&gt;&quot;x&quot;&lt;/b&gt;</a></p>')
  })

  it('splits leading header rows of a table into thead and keeps colspan', () => {
    const cell = (type: string, text: string, attrs = {}) => ({
      type,
      attrs,
      content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
    })
    const html = renderNode(
      doc({
        type: 'table',
        content: [
          { type: 'tableRow', content: [cell('tableHeader', 'A'), cell('tableHeader', 'B')] },
          { type: 'tableRow', content: [cell('tableCell', 'wide', { colspan: 2 })] },
        ],
      }),
    )
    expect(html).toBe(
      '<table><thead><tr><th><p>A</p></th><th><p>B</p></th></tr></thead><tbody><tr><td colspan="2"><p>wide</p></td></tr></tbody></table>',
    )
  })

  it('renders nothing for embedded bloks and unknown nodes without content', () => {
    expect(renderNode(doc({ type: 'blok', attrs: { body: [] } }, { type: 'mystery' }))).toBe('')
  })

  it('gives the plain text with spaces between blocks', () => {
    expect(
      plainText(
        doc(
          { type: 'paragraph', content: [{ type: 'text', text: 'One.' }] },
          {
            type: 'paragraph',
            content: [{ type: 'text', text: 'Two' }, { type: 'hard_break' }, { type: 'text', text: 'three' }],
          },
        ),
      ).trim(),
    ).toBe('One. Two three')
  })
})
