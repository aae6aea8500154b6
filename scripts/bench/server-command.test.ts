import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseServeScript, serverCommand } from './server-command.ts'

describe('the server command of the serve script', () => {
  it('runs node directly with the variables the script sets', () => {
    expect(
      parseServeScript('MALLOC_TRIM_THRESHOLD_=131072 exec node dist/node/server/main.js', [], '/bin/node'),
    ).toEqual({
      command: '/bin/node',
      args: ['dist/node/server/main.js'],
      env: { MALLOC_TRIM_THRESHOLD_: '131072' },
    })
  })

  it('puts extra node flags before the script’s arguments', () => {
    expect(
      parseServeScript('node --enable-source-maps main.js', ['--max-semi-space-size=8'], '/bin/node').args,
    ).toEqual(['--max-semi-space-size=8', '--enable-source-maps', 'main.js'])
  })

  it('refuses a script that is not one plain node command', () => {
    expect(() => parseServeScript('npm run build && node main.js')).toThrow(/not a plain command/)
    expect(() => parseServeScript('X=1 tsx main.ts')).toThrow(/does not run node/)
  })

  it('starts the built server from the project’s own serve script', () => {
    const command = serverCommand(resolve(import.meta.dirname, '../..'))
    expect(command.args.at(-1)).toBe('dist/node/server/main.js')
    expect(command.env.MALLOC_TRIM_THRESHOLD_).toBe('131072')
  })
})
