/**
 * How the benches (and the crash test) start the production server: the command of
 * `npm run serve` in package.json, run without npm and the shell in between, so that the child's
 * pid is the server's own (its memory and CPU time are read from /proc/<pid>, and a SIGKILL
 * reaches the server). The serve script sets the server's environment (MALLOC_TRIM_THRESHOLD_,
 * ADR 0113); starting it any other way would measure another process.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export interface ServerCommand {
  command: string
  args: string[]
  /** Variables the script sets for the server */
  env: Record<string, string>
}

/**
 * Splits a script of the form `[NAME=value …] [exec] node [args …]` (no quotes or shell
 * operators; anything else is refused). `nodeArgs` go before the script's own arguments.
 */
export function parseServeScript(
  script: string,
  nodeArgs: string[] = [],
  execPath = process.execPath,
): ServerCommand {
  if (/["'`$;&|<>()\\]/.test(script)) throw new Error(`the serve script is not a plain command: ${script}`)
  const words = script.trim().split(/\s+/)
  const env: Record<string, string> = {}
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
    const word = words.shift()!
    const at = word.indexOf('=')
    env[word.slice(0, at)] = word.slice(at + 1)
  }
  if (words[0] === 'exec') words.shift()
  if (words.shift() !== 'node') throw new Error(`the serve script does not run node: ${script}`)
  return { command: execPath, args: [...nodeArgs, ...words], env }
}

/** The server command of `npm run serve` in the project at `root`. */
export function serverCommand(root: string, nodeArgs: string[] = []): ServerCommand {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  return parseServeScript(pkg.scripts.serve!, nodeArgs)
}
