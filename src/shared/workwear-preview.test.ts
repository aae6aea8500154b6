import { describe, expect, it } from 'vitest'
import { garmentShape, renderWorkwearPreview } from './workwear-preview.ts'

const yellow = { name: 'Hi-vis yellow', hex: '#E4F000' }
const LOGO = 'data:image/png;base64,AAAA'

/** The x coordinates of the outline drawn in the view `view` of a preview. */
function outlineXs(svg: string, view: 'front' | 'back'): number[] {
  const group = new RegExp(`<g transform="translate\\((\\d+) 0\\)" data-view="${view}">(.*?)</g>`).exec(svg)
  if (!group) return []
  const d = /<path d="([^"]+)"/.exec(group[2]!)![1]!
  return [...d.matchAll(/[MLQ ](\d+) (\d+)/g)].map((m) => Number(m[1]))
}

/** The views (front or back) that an <image> at logo position `x` lands in. */
function imageViews(svg: string): ('front' | 'back')[] {
  return [
    ...svg.matchAll(/<g transform="translate\((\d+) 0\)" data-view="(front|back)">(.*?)<\/g>/g),
  ].flatMap((m) => [...m[3]!.matchAll(/<image /g)].map(() => m[2] as 'front' | 'back'))
}

describe('the workwear preview', () => {
  it('draws a hi-vis vest without sleeves, with its reflective bands', () => {
    const vest = renderWorkwearPreview({
      colour: yellow,
      garment: 'Hi-vis vest',
      positions: [],
      text: '',
      logo: null,
    })
    const xs = outlineXs(vest, 'front')
    expect(xs.length).toBeGreaterThan(0)
    // The body runs from x = 60 to 180; sleeves would reach out to 25 and 215.
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(60)
    expect(Math.max(...xs)).toBeLessThanOrEqual(180)
    expect(vest.match(/fill="#C8CCD0"/g)).toHaveLength(2)
  })

  it('still draws a polo shirt with sleeves', () => {
    const polo = renderWorkwearPreview({
      colour: yellow,
      garment: 'Polo shirt',
      positions: [],
      text: '',
      logo: null,
    })
    const xs = outlineXs(polo, 'front')
    expect(Math.min(...xs)).toBeLessThan(40)
    expect(Math.max(...xs)).toBeGreaterThan(200)
    expect(polo).not.toContain('#C8CCD0')
  })

  it('draws a back logo on a back view beside the front, and chest logos on the front', () => {
    const svg = renderWorkwearPreview({
      colour: yellow,
      garment: 'Polo shirt',
      positions: ['left-chest', 'back'],
      text: 'ACME',
      logo: LOGO,
      displaySize: 120,
    })
    expect(svg).toContain('viewBox="0 0 480 240" width="240" height="120"')
    expect(imageViews(svg).sort()).toEqual(['back', 'front'])
    expect(svg).toMatch(/data-view="back">.*>Back<\/text>/)
    expect(svg).toMatch(/data-view="back">.*>ACME<\/text>/)
    const backOnly = renderWorkwearPreview({
      colour: yellow,
      garment: 'Polo shirt',
      positions: ['back'],
      text: '',
      logo: LOGO,
    })
    expect(imageViews(backOnly)).toEqual(['back'])
  })

  it('shows only the front, at its own size, when nothing goes on the back', () => {
    const svg = renderWorkwearPreview({
      colour: null,
      garment: 'Softshell jacket',
      positions: ['left-chest'],
      text: '',
      logo: LOGO,
    })
    expect(svg).toContain('viewBox="0 0 240 240" width="240" height="240"')
    expect(imageViews(svg)).toEqual(['front'])
    expect(svg).not.toContain('data-view="back"')
  })

  it('knows a sleeveless garment by its name', () => {
    expect(garmentShape('Hi-vis vest')).toBe('vest')
    expect(garmentShape('Fleece gilet')).toBe('vest')
    expect(garmentShape('Hi-vis tabard')).toBe('vest')
    expect(garmentShape('Polo shirt')).toBe('sleeved')
    expect(garmentShape('Investigator jacket')).toBe('sleeved')
    expect(garmentShape(null)).toBe('sleeved')
  })
})
