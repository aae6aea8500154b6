import { parse } from 'acorn'
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
const script = join(root, 'scripts/check-node.cjs')
const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim()
const engines = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node

function guard(args: string[], scriptPath = script) {
  const run = spawnSync(process.execPath, [scriptPath, ...args], { encoding: 'utf8', timeout: 10_000 })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

// A copy of the guard beside its own package.json and .nvmrc, to try other settings.
const scratch = mkdtempSync(join(tmpdir(), 'check-node-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let copies = 0
function guardWith(files: { nvmrc?: string; engines?: string }) {
  const dir = join(scratch, String(copies++))
  mkdirSync(join(dir, 'scripts'), { recursive: true })
  copyFileSync(script, join(dir, 'scripts/check-node.cjs'))
  if (files.nvmrc !== undefined) writeFileSync(join(dir, '.nvmrc'), files.nvmrc)
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'x', ...(files.engines ? { engines: { node: files.engines } } : {}) }),
  )
  return (version: string) => guard([`--pretend-version=${version}`], join(dir, 'scripts/check-node.cjs'))
}

describe('the Node version guard (scripts/check-node.cjs)', () => {
  it('stops Node 20 with one line naming the version to install and how to get it', () => {
    const run = guard(['--pretend-version=20.20.2'])
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      'This shop needs Node.js 24 (at least 22.12; you have 20.20.2): install it from https://nodejs.org ' +
        'or run `nvm install` here (it reads .nvmrc).\n',
    )
  })

  it('names the version .nvmrc gives and the oldest one package.json engines accepts', () => {
    const run = guard(['--pretend-version=18.0.0'])
    expect(run.stderr).toContain(`needs Node.js ${nvmrc} (at least ${engines.replace(/^>=\s*/, '')}; `)
    expect(run.stderr.split('\n')).toHaveLength(2)
  })

  it('lets the version .nvmrc names pass, as CI, the Dockerfile and a nvm user run it', () => {
    const run = guard([`--pretend-version=${nvmrc}.0.0`])
    expect(run).toEqual({ status: 0, stdout: '', stderr: '' })
  })

  it('lets the running Node pass silently', () => {
    expect(guard([])).toEqual({ status: 0, stdout: '', stderr: '' })
  })

  it('draws the line exactly at the engines floor and accepts later majors', () => {
    expect(guard(['--pretend-version=22.11.9']).status).toBe(1)
    expect(guard(['--pretend-version=22.12.0']).status).toBe(0)
    expect(guard(['--pretend-version=v23.1.0']).status).toBe(0)
    expect(guard(['--pretend-version=26.0.0-pre']).status).toBe(0)
  })

  it('refuses a pretend version that is not a version, with a message', () => {
    const run = guard(['--pretend-version=twenty'])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(
      'check-node: --pretend-version must be a version such as 20.20.2, not "twenty".\n',
    )
  })

  it('follows .nvmrc and engines when they change', () => {
    const check = guardWith({ nvmrc: 'v26\n', engines: '^24.4.0 || >=26' })
    expect(check('24.3.9').stderr).toBe(
      'This shop needs Node.js 26 (you have 24.3.9): install it from https://nodejs.org ' +
        'or run `nvm install` here (it reads .nvmrc).\n',
    )
    expect(check('24.4.0').status).toBe(0)
    expect(check('25.0.0').status).toBe(1)
    expect(check('26.1.0').status).toBe(0)
  })

  it('takes the floor from .nvmrc alone when package.json has no engines', () => {
    const check = guardWith({ nvmrc: '24' })
    expect(check('22.20.0').stderr).toBe(
      'This shop needs Node.js 24 (you have 22.20.0): install it from https://nodejs.org ' +
        'or run `nvm install` here (it reads .nvmrc).\n',
    )
    expect(check('24.0.0').status).toBe(0)
  })

  it('says so, rather than letting every Node through, when it cannot read engines', () => {
    const check = guardWith({ nvmrc: '24', engines: '22 - 24' })
    const run = check('24.1.0')
    expect(run.status).toBe(1)
    expect(run.stderr).toBe('check-node: cannot read package.json engines.node "22 - 24".\n')
  })

  it('is written in syntax old Node parses (ES2017 script, no imports)', () => {
    const source = readFileSync(script, 'utf8')
    expect(() => parse(source, { ecmaVersion: 2017, sourceType: 'script' })).not.toThrow()
    expect(() => parse('const a = b?.c', { ecmaVersion: 2017, sourceType: 'script' })).toThrow()
  })

  it('runs first in npm install, npm ci, npm start and npm test', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(scripts.preinstall).toBe('node scripts/check-node.cjs')
    expect(scripts.start).toMatch(/^node scripts\/check-node\.cjs && /)
    expect(scripts.test).toMatch(/^node scripts\/check-node\.cjs && /)
  })
})
