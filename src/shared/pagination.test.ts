import { describe, expect, it } from 'vitest'
import {
  clampPage,
  DEFAULT_PAGE_SIZE,
  pageHref,
  pageWindow,
  paginationMeta,
  parseLimit,
  parsePage,
  sortHref,
  visiblePageCount,
  withQuery,
  type PageItem,
} from './pagination.ts'

/** A window as text: '1 … 4 [5] 6 … 20'. */
function show(items: PageItem[]): string {
  return items.map((i) => (i.kind === 'gap' ? '…' : i.current ? `[${i.page}]` : String(i.page))).join(' ')
}

const numbers = (items: PageItem[]) => items.filter((i) => i.kind === 'page').length

describe('visiblePageCount', () => {
  it.each([
    [320, 3],
    [390, 3],
    [479, 3],
    [480, 5],
    [767, 5],
    [768, 7],
    [1023, 7],
    [1024, 9],
    [1920, 9],
  ])('%i px shows %i page numbers', (width, count) => {
    expect(visiblePageCount(width)).toBe(count)
  })
})

describe('pageWindow', () => {
  it('shows every page when they fit', () => {
    expect(show(pageWindow(1, 1, 9))).toBe('[1]')
    expect(show(pageWindow(2, 3, 3))).toBe('1 [2] 3')
    expect(show(pageWindow(4, 9, 9))).toBe('1 2 3 [4] 5 6 7 8 9')
    expect(show(pageWindow(5, 5, 5))).toBe('1 2 3 4 [5]')
  })

  it('keeps the first and last page and puts ellipses where pages are left out', () => {
    expect(show(pageWindow(10, 20, 9))).toBe('1 … 7 8 9 [10] 11 12 13 … 20')
    expect(show(pageWindow(10, 20, 7))).toBe('1 … 8 9 [10] 11 12 … 20')
    expect(show(pageWindow(10, 20, 5))).toBe('1 … 9 [10] 11 … 20')
    expect(show(pageWindow(10, 20, 3))).toBe('1 … [10] … 20')
  })

  it('shifts the run at either end so the count stays full, with one ellipsis', () => {
    expect(show(pageWindow(1, 20, 9))).toBe('[1] 2 3 4 5 6 7 8 … 20')
    expect(show(pageWindow(2, 20, 7))).toBe('1 [2] 3 4 5 6 … 20')
    expect(show(pageWindow(20, 20, 9))).toBe('1 … 13 14 15 16 17 18 19 [20]')
    expect(show(pageWindow(19, 20, 5))).toBe('1 … 17 18 [19] 20')
    expect(show(pageWindow(1, 20, 3))).toBe('[1] 2 … 20')
    expect(show(pageWindow(20, 20, 3))).toBe('1 … 19 [20]')
  })

  it('never shows more numbers than allowed, always the current, first and last page', () => {
    for (const count of [3, 5, 7, 9]) {
      for (let total = 1; total <= 25; total++) {
        for (let current = 1; current <= total; current++) {
          const items = pageWindow(current, total, count)
          const pages = items.flatMap((i) => (i.kind === 'page' ? [i.page] : []))
          expect(numbers(items)).toBe(Math.min(total, count))
          expect(pages[0]).toBe(1)
          expect(pages.at(-1)).toBe(total)
          expect(pages).toContain(current)
          expect(pages).toEqual([...pages].sort((a, b) => a - b))
          // a gap stands exactly where numbers are skipped
          items.forEach((item, i) => {
            const prev = items[i - 1]
            const nextItem = items[i + 1]
            if (item.kind === 'gap') {
              expect(prev?.kind === 'page' && nextItem?.kind === 'page').toBe(true)
              if (prev?.kind === 'page' && nextItem?.kind === 'page')
                expect(nextItem.page - prev.page).toBeGreaterThan(1)
            } else if (nextItem?.kind === 'page') {
              expect(nextItem.page).toBe(item.page + 1)
            }
          })
        }
      }
    }
  })

  it('holds the current page plus and minus 2 from 7 numbers up', () => {
    for (const count of [7, 9]) {
      for (let current = 1; current <= 30; current++) {
        const pages = pageWindow(current, 30, count).flatMap((i) => (i.kind === 'page' ? [i.page] : []))
        for (let n = Math.max(1, current - 2); n <= Math.min(30, current + 2); n++) expect(pages).toContain(n)
      }
    }
  })

  it('clamps a current page outside 1..total', () => {
    expect(show(pageWindow(99, 4, 9))).toBe('1 2 3 [4]')
    expect(show(pageWindow(0, 4, 9))).toBe('[1] 2 3 4')
  })
})

describe('parsePage and parseLimit', () => {
  it.each([
    [undefined, 1],
    ['', 1],
    ['abc', 1],
    ['0', 1],
    ['-2', 1],
    ['2.5', 1],
    ['1e3', 1],
    [' 3 ', 3],
    ['7', 7],
    [['4', '5'], 4],
    [{ a: '1' }, 1],
    ['99999999999999999999', 1_000_000_000],
  ])('page %j -> %i', (raw, page) => {
    expect(parsePage(raw)).toBe(page)
  })

  it.each([
    [undefined, DEFAULT_PAGE_SIZE],
    ['x', DEFAULT_PAGE_SIZE],
    ['-5', DEFAULT_PAGE_SIZE],
    ['0', 1],
    ['1', 1],
    ['24', 24],
    ['100', 100],
    ['101', 100],
    ['99999999999999999999', 100],
  ])('limit %j -> %i', (raw, limit) => {
    expect(parseLimit(raw)).toBe(limit)
  })
})

describe('paginationMeta', () => {
  it('counts results on a middle and the last page', () => {
    expect(paginationMeta(2, 23, 10)).toEqual({
      page: 2,
      total_pages: 3,
      total_results: 23,
      limit: 10,
      from: 11,
      to: 20,
    })
    expect(paginationMeta(3, 23, 10)).toMatchObject({ from: 21, to: 23 })
  })

  it('shows the last page for a page beyond it, and page 1 of 1 for an empty listing', () => {
    expect(clampPage(9, 23, 10)).toBe(3)
    expect(paginationMeta(9, 23, 10)).toMatchObject({ page: 3, from: 21, to: 23 })
    expect(paginationMeta(5, 0, 10)).toEqual({
      page: 1,
      total_pages: 1,
      total_results: 0,
      limit: 10,
      from: 0,
      to: 0,
    })
  })
})

describe('links', () => {
  it('set the page, keep other parameters and drop page 1', () => {
    expect(pageHref('/signs?sort=name-asc', 3)).toBe('/signs?sort=name-asc&page=3')
    expect(pageHref('/signs?sort=new&page=3', 1)).toBe('/signs?sort=new')
    expect(pageHref('/search?q=exit+sign&page=2#top', 4)).toBe('/search?q=exit+sign&page=4')
  })

  it('change the sort and drop the page', () => {
    expect(sortHref('/signs?page=4&limit=20', 'price-high_low')).toBe('/signs?limit=20&sort=price-high_low')
    expect(sortHref('/signs?sort=new&page=2', '')).toBe('/signs')
  })

  it('withQuery keeps a bare path', () => {
    expect(withQuery('', { page: null })).toBe('/')
    expect(withQuery('/a', { b: 1 })).toBe('/a?b=1')
  })
})
