import { describe, expect, it } from 'vitest'
import type { ContentStore } from './content.store.ts'
import { ContentService } from './content.service.ts'
import type { Story } from './storyblok.types.ts'

function storyNamed(name: string): Story {
  return {
    id: 1,
    uuid: 'u',
    name,
    slug: 'about',
    full_slug: 'about',
    content: { _uid: 'b', component: 'page' },
    created_at: '',
    updated_at: '',
    published_at: null,
    first_published_at: null,
    sort_by_date: null,
    position: 0,
    tag_list: [],
    is_startpage: false,
    parent_id: null,
    group_id: 'g',
    lang: 'default',
    alternates: [],
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

/** A store that counts its reads and answers each when the test says so. */
function slowStore() {
  const calls = { story: 0, cv: 0 }
  const waiting: (() => void)[] = []
  let name = 'About us'
  const store: ContentStore = {
    // Each read finds the story as it was when the read began.
    getStory: async () => {
      calls.story++
      const found = name
      await new Promise<void>((r) => waiting.push(r))
      return storyNamed(found)
    },
    getStories: async () => ({ stories: [], rels: [], cv: 1, total: 0, perPage: 25 }),
    cacheVersion: async () => {
      calls.cv++
      return 1
    },
  }
  return {
    store,
    calls,
    rename: (n: string) => (name = n),
    /** Answers the reads under way, the latest first. */
    answer: async () => {
      for (const r of waiting.splice(0).reverse()) {
        r()
        await settle()
      }
    },
  }
}

describe('ContentService', () => {
  it('reads a story once when several requests miss it at the same time, and checks the cache version once', async () => {
    const s = slowStore()
    const content = new ContentService(s.store)
    const reads = [content.story(1, 'about'), content.story(1, 'about'), content.story(1, 'about')]
    await settle()
    await s.answer()
    const stories = await Promise.all(reads)
    expect(stories.map((x) => x?.name)).toEqual(['About us', 'About us', 'About us'])
    expect(s.calls).toEqual({ story: 1, cv: 1 })
    expect((await content.story(1, 'about'))?.name).toBe('About us')
    expect(s.calls.story).toBe(1)
  })

  it('does not keep a story read before an invalidation, and starts a fresh read after it', async () => {
    const s = slowStore()
    const content = new ContentService(s.store)
    const before = content.story(1, 'about')
    await settle()
    s.rename('About the shop')
    content.invalidate()
    const after = content.story(1, 'about')
    await settle()
    // The fresh read answers first; the old one, answering last, must not replace it.
    await s.answer()
    expect((await before)?.name).toBe('About us')
    expect((await after)?.name).toBe('About the shop')
    expect(s.calls.story).toBe(2)
    // What the read after the invalidation found is kept.
    expect((await content.story(1, 'about'))?.name).toBe('About the shop')
    expect(s.calls.story).toBe(2)
  })
})
