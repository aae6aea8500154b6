import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readSiteStories, stableUuid, withUids } from './content.import.ts'

let dir: string | null = null
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = null
})

async function files(entries: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'content-'))
  for (const [path, body] of Object.entries(entries)) {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), body)
  }
  return dir
}

describe('content import files', () => {
  it('read the full slug from the path and give every block a stable _uid', async () => {
    const base = await files({
      'shop/blog/news.json': JSON.stringify({
        name: 'News',
        content: { component: 'post', body: [{ component: 'text' }] },
      }),
    })
    const [story] = await readSiteStories(base, 'shop')
    expect(story!.fullSlug).toBe('blog/news')
    expect(story!.uuid).toBe(stableUuid('shop/blog/news'))
    const body = story!.content.body as { _uid: string }[]
    expect(body[0]!._uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const again = await readSiteStories(base, 'shop')
    expect((again[0]!.content.body as { _uid: string }[])[0]!._uid).toBe(body[0]!._uid)
  })

  it('keep a _uid that is already there', () => {
    expect(withUids({ component: 'x', _uid: 'mine' }, 'p')).toEqual({ component: 'x', _uid: 'mine' })
  })

  it('stop with the file name on bad JSON, a bad slug or a missing component', async () => {
    await expect(readSiteStories(await files({ 'shop/a.json': '{' }), 'shop')).rejects.toThrow(
      'content/shop/a.json',
    )
    await rm(dir!, { recursive: true })
    await expect(readSiteStories(await files({ 'shop/Bad Name.json': '{}' }), 'shop')).rejects.toThrow(
      'not a valid slug',
    )
    await rm(dir!, { recursive: true })
    await expect(
      readSiteStories(await files({ 'shop/a.json': '{"name":"A","content":{}}' }), 'shop'),
    ).rejects.toThrow(/content\/shop\/a\.json.*component/s)
  })

  it('answer no stories for a site without a folder', async () => {
    expect(await readSiteStories(await files({}), 'nobody')).toEqual([])
  })
})
