import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanRelativePath, resolveInside } from './media.paths.ts'

describe('request paths', () => {
  it('keep ordinary nested file names', () => {
    expect(cleanRelativePath('catalog/harbour/fire-exit-sign_1.svg')).toBe(
      'catalog/harbour/fire-exit-sign_1.svg',
    )
    expect(cleanRelativePath('catalog/a%20b.png')).toBeNull()
    expect(cleanRelativePath('Catalog/A.PNG')).toBe('Catalog/A.PNG')
  })

  it('refuse dot segments, encoded or not', () => {
    for (const raw of [
      '../x.png',
      'a/../../x.png',
      '%2e%2e/x.png',
      'a/%2E%2E%2Fx.png',
      './x.png',
      'a/./x.png',
      '..',
    ]) {
      expect(cleanRelativePath(raw), raw).toBeNull()
    }
  })

  it('refuse absolute paths, backslashes, NUL bytes, hidden files and double encoding', () => {
    for (const raw of [
      '/etc/passwd',
      '%2fetc/passwd',
      'a//b.png',
      'a\\b.png',
      'a%5cb.png',
      'x.png%00.svg',
      '.env',
      'a/.seed.json',
      '%252e%252e/x.png',
      '%zz',
      '',
    ]) {
      expect(cleanRelativePath(raw), raw).toBeNull()
    }
  })

  it('refuse very long or very deep paths', () => {
    expect(cleanRelativePath(`${'a'.repeat(400)}.png`)).toBeNull()
    expect(cleanRelativePath(`${'a/'.repeat(12)}x.png`)).toBeNull()
  })
})

describe('resolving inside a root', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'media-paths-'))
    await mkdir(join(dir, 'root/sub'), { recursive: true })
    await writeFile(join(dir, 'root/sub/a.png'), 'a')
    await writeFile(join(dir, 'outside.png'), 'secret')
    await symlink(join(dir, 'outside.png'), join(dir, 'root/link.png'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('finds a file below the root', async () => {
    expect(await resolveInside(join(dir, 'root'), 'sub/a.png')).toMatch(/root\/sub\/a\.png$/)
  })

  it('refuses a symlink that leads out of the root, and missing files', async () => {
    expect(await resolveInside(join(dir, 'root'), 'link.png')).toBeNull()
    expect(await resolveInside(join(dir, 'root'), 'sub/missing.png')).toBeNull()
    expect(await resolveInside(join(dir, 'root'), '../outside.png')).toBeNull()
  })
})
