import { describe, expect, it } from 'vitest'
import { fileTypeLabel, presentGallery } from './product.media.ts'

describe('gallery', () => {
  it('presents images by their file (the browser asks for each size) and videos with their poster and player link', () => {
    const items = presentGallery(
      [
        { file_location: '/media/a.jpg', alt: 'Front' },
        { file_location: '/media/b.mp4', type: 'video' },
        { file_location: '/media/v.svg', type: 'video', video_id: 'abc123', alt: 'Demo' },
        { file_location: '/media/c.mp3', type: 'audio' },
        { file_location: 'javascript:alert(1)' },
      ],
      'Sign',
      ['abc123', 'zzz999', 'bad id!'],
    )
    expect(items).toEqual([
      { kind: 'image', file: '/media/a.jpg', alt: 'Front' },
      {
        kind: 'video',
        src: '/media/b.mp4',
        thumb: null,
        alt: 'Sign video 2',
        poster: null,
        link: null,
      },
      {
        kind: 'video',
        src: '',
        thumb: '/media/v.svg',
        alt: 'Demo',
        poster: '/media/v.svg',
        link: 'https://fast.wistia.net/embed/iframe/abc123',
      },
      {
        kind: 'video',
        src: '',
        thumb: null,
        alt: 'Sign video 4',
        poster: null,
        link: 'https://fast.wistia.net/embed/iframe/zzz999',
      },
    ])
  })

  it('is null when the media feature is not a list', () => {
    expect(presentGallery({ file_location: '/a.png' }, 'x')).toBeNull()
    expect(presentGallery([], 'x')).toEqual([])
  })
})

describe('file type labels', () => {
  it.each([
    ['pdf', '', 'pdf'],
    ['DOCX', '', 'doc'],
    ['doc', '', 'doc'],
    ['xlsx', '', 'xls'],
    ['jpeg', '', 'image'],
    ['gif', '', 'image'],
    ['mov', '', 'video'],
    ['avi', '', 'video'],
    ['dwg', '', 'dwg'],
    ['', 'plan.PNG', 'image'],
    ['', 'noext', 'file'],
  ])('labels file type %s (%s) as %s', (type, name, label) => {
    expect(fileTypeLabel(type, name)).toBe(label)
  })
})
