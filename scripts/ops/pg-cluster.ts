/**
 * A private PostgreSQL cluster for one test run: `initdb` into a temporary folder (trust
 * authentication, loopback only, its socket in that folder), started with `pg_ctl` on a port of
 * the run's own, so the run can restart it without touching the machine's shared server. When
 * this process runs as root (PostgreSQL refuses to), the cluster's commands run as the
 * `postgres` user through `runuser`.
 */
import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string
  port: number
  dir: string
  /** `pg_ctl restart`: `fast` ends sessions cleanly, `immediate` is a crash (recovery on start) */
  restart(mode?: 'fast' | 'immediate'): Promise<void>
  stop(): Promise<void>
}

/** The newest PostgreSQL server binaries installed (Debian's /usr/lib/postgresql/<version>/bin). */
export function postgresBin(): string {
  const base = '/usr/lib/postgresql'
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (!versions[0]) throw new Error(`no PostgreSQL server found under ${base} (apt-get install postgresql)`)
  return join(base, versions[0], 'bin')
}

export async function startPgCluster(port: number): Promise<PgCluster> {
  const bin = postgresBin()
  const dir = mkdtempSync(join(tmpdir(), 'shop-faults-pg-'))
  const asRoot = process.getuid?.() === 0
  const uid = asRoot ? Number((await run('id', ['-u', 'postgres'])).stdout.trim()) : null
  const gid = asRoot ? Number((await run('id', ['-g', 'postgres'])).stdout.trim()) : null
  if (uid !== null && gid !== null) chownSync(dir, uid, gid)
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { cwd: dir })
      : run(join(bin, tool), args, { cwd: dir })
  const data = join(dir, 'data')
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'])
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    `-h 127.0.0.1`,
    // Two instances with a pool each, the reconciler's client and the load test's own.
    `-c max_connections=100`,
  ].join(' ')
  const ctl = (args: string[]) =>
    pg('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '120', ...args])
  await ctl(['start'])
  let stopped = false
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    restart: async (mode = 'fast') => void (await ctl(['restart', '-m', mode])),
    stop: async () => {
      if (stopped) return
      stopped = true
      await ctl(['stop', '-m', 'fast']).catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
