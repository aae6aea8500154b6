/**
 * Issue 18's start-up, memory and large-catalogue search figures (`--only=startup`,
 * `--only=search100k`):
 *
 * - startup: the production server on the demo data. The first-ever start (an empty database:
 *   migrations and the demo seed), then several starts on the seeded database: time to the first
 *   answer (the home page), time until /readyz says 200, RSS when idle after start, RSS after a
 *   warm-up of the main pages, and the peak RSS (VmHWM) under a short load of them.
 * - search100k: the Search page at 100k generated products for a broad query ('sign', ~31k hits):
 *   SSR HTML and Inertia JSON; the client's p95 (and the server's, from Server-Timing) against the
 *   20 ms target, closed-loop at 10 connections and open-loop at fixed rates of 50 and 100 req/s,
 *   and the server's CPU time per request (from /proc, all its threads: GC and serialisation
 *   too). The 100k catalogue is seeded once into var/bench-100k-db and reused by later runs (the
 *   seed takes minutes).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { load, rateLoad, type LoadResult } from './load.ts'
import { cpuMs } from './proc-cpu.ts'
import { serverCommand } from './server-command.ts'

export interface StartupBenchOptions {
  root: string
  /** The app's port; the payment simulators take port + 7 */
  port: number
  /** Starts measured on the seeded database (the median is printed) */
  runs?: number
  durationMs?: number
  connections?: number
  /** Extra flags for node (e.g. `--max-semi-space-size=8`), before the serve script's arguments */
  nodeArgs?: string[]
}

const COLD_START_TARGET_MS = 1000
const IDLE_RSS_TARGET_MB = 300
const SEARCH_P95_TARGET_MS = 20
const LARGE_CATALOGUE = 100_000
/** The Search page's open-loop rates (requests a second). */
const SEARCH_RATES = [50, 100]

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

function serverEnv(opts: StartupBenchOptions, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    PAYMENTS_SIMULATOR_PORT: String(opts.port + 7),
    PGLITE_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    SERVER_TIMING: 'true',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SEARCH_RATE_LIMIT_PER_MINUTE: '100000000',
  }
}

/** Status of one GET (0 when the server does not answer yet). */
function status(port: number, path: string): Promise<number> {
  return new Promise((done) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, headers: { host: 'localhost', accept: 'text/html' } },
      (res) => {
        res.resume()
        res.on('end', () => done(res.statusCode ?? 0))
      },
    )
    req.on('error', () => done(0))
  })
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * CPU time (user + system, every thread) a process has used so far, in ms (Linux /proc). On a
 * loaded machine the wall time to the first answer mostly measures the wait for a core; this does not.
 */
function cpuMsOf(pid: number): number {
  return cpuMs(pid) ?? Number.NaN
}

interface Start {
  child: ChildProcess
  firstAnswerMs: number
  /** CPU time of the server process until the first answer */
  cpuMs: number
  readyMs: number
}

/** Starts the server and polls until the home page answers, then until /readyz says 200. */
async function startServer(opts: StartupBenchOptions, dataDir: string, timeoutMs = 300_000): Promise<Start> {
  const started = performance.now()
  const serve = serverCommand(opts.root, opts.nodeArgs)
  const child = spawn(serve.command, serve.args, {
    cwd: opts.root,
    env: { ...serverEnv(opts, dataDir), ...serve.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const until = started + timeoutMs
  let firstAnswerMs = 0
  let cpuMs = 0
  while (!firstAnswerMs) {
    if (performance.now() > until || child.exitCode !== null) throw new Error('the server did not answer')
    if ((await status(opts.port, '/')) === 200) {
      firstAnswerMs = performance.now() - started
      cpuMs = cpuMsOf(child.pid!)
    } else await pause(5)
  }
  let readyMs = 0
  while (!readyMs) {
    if (performance.now() > until) throw new Error('the server did not become ready')
    if ((await status(opts.port, '/readyz')) === 200) readyMs = performance.now() - started
    else await pause(5)
  }
  return { child, firstAnswerMs, cpuMs, readyMs }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}

function pages(port: number) {
  const base = `http://127.0.0.1:${port}`
  const html = { host: 'localhost', accept: 'text/html' }
  return [`${base}/`, `${base}/search?q=sign`, `${base}/search?q=fire+exit&sort=name-asc`].map((url) => ({
    url,
    headers: html,
  }))
}

export async function startupBench(opts: StartupBenchOptions): Promise<void> {
  const runs = opts.runs ?? 5
  if (opts.nodeArgs?.length) console.log(`startup: node flags ${opts.nodeArgs.join(' ')}`)
  const dataDir = resolve(opts.root, 'var/bench-startup-db')
  rmSync(dataDir, { recursive: true, force: true })

  const first = await startServer(opts, dataDir)
  await stop(first.child)
  console.log(
    `startup: first-ever start (migrations + demo seed): first answer ${first.firstAnswerMs.toFixed(0)} ms, ready ${first.readyMs.toFixed(0)} ms`,
  )

  const firstAnswers: number[] = []
  const cpus: number[] = []
  const readies: number[] = []
  const idle: number[] = []
  const warm: number[] = []
  const peaks: number[] = []
  for (let run = 0; run < runs; run++) {
    const s = await startServer(opts, dataDir)
    firstAnswers.push(s.firstAnswerMs)
    cpus.push(s.cpuMs)
    readies.push(s.readyMs)
    const pid = s.child.pid!
    await pause(3000)
    idle.push(memoryOf(pid).rss)
    // Warm-up and a short load of the main pages: RSS a while after it, and the peak during it.
    for (const page of pages(opts.port))
      await load({ ...page, connections: opts.connections ?? 10, durationMs: (opts.durationMs ?? 3000) / 3 })
    await pause(3000)
    const after = memoryOf(pid)
    warm.push(after.rss)
    peaks.push(after.peak)
    await stop(s.child)
  }
  const cold = median(firstAnswers)
  const idleMb = median(idle)
  console.log(
    `startup: cold start to the first answer ${cold.toFixed(0)} ms (median of ${runs}; ${firstAnswers.map((x) => x.toFixed(0)).join(', ')}), target < ${COLD_START_TARGET_MS} ms: ${verdict(cold < COLD_START_TARGET_MS)}`,
  )
  console.log(
    `startup: CPU time of the server until the first answer ${median(cpus).toFixed(0)} ms (median; ${cpus.map((x) => x.toFixed(0)).join(', ')}); load average ${loadavg()[0]!.toFixed(1)}`,
  )
  console.log(`startup: /readyz 200 after ${median(readies).toFixed(0)} ms (median)`)
  console.log(
    `startup: idle RSS after start ${idleMb.toFixed(0)} MB (median), target < ${IDLE_RSS_TARGET_MB} MB: ${verdict(idleMb < IDLE_RSS_TARGET_MB)}`,
  )
  console.log(
    `startup: RSS after warm-up ${median(warm).toFixed(0)} MB, peak RSS under load ${Math.max(...peaks).toFixed(0)} MB`,
  )
}

/** Seeds (once) the demo shop plus 100k generated products, reused while the marker matches. */
async function largeCatalogue(root: string): Promise<string> {
  const dataDir = resolve(root, 'var/bench-100k-db')
  const marker = resolve(dataDir, '.bench-products')
  if (existsSync(marker) && readFileSync(marker, 'utf8') === String(LARGE_CATALOGUE)) {
    console.log(`search100k: reusing the seeded catalogue in ${dataDir} (delete it to seed again)`)
    return dataDir
  }
  rmSync(dataDir, { recursive: true, force: true })
  const started = performance.now()
  await new Promise<void>((done, fail) => {
    const seed = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/server/db/seed/cli.ts', '--products', String(LARGE_CATALOGUE)],
      {
        cwd: root,
        env: { ...process.env, PGLITE_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production' },
        stdio: 'inherit',
      },
    )
    seed.on('exit', (code) => (code === 0 ? done() : fail(new Error(`seed exited with ${code}`))))
  })
  writeFileSync(marker, String(LARGE_CATALOGUE))
  console.log(
    `search100k: seeded demo + ${LARGE_CATALOGUE} generated products in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  )
  return dataDir
}

export async function search100kBench(opts: StartupBenchOptions): Promise<void> {
  const dataDir = await largeCatalogue(opts.root)
  const s = await startServer(opts, dataDir)
  try {
    console.log(`search100k: server ready (index built) ${(s.readyMs / 1000).toFixed(1)} s after start`)
    const base = `http://127.0.0.1:${opts.port}`
    const inertia = {
      host: 'localhost',
      'x-inertia': 'true',
      'x-requested-with': 'XMLHttpRequest',
      'x-inertia-version': 'x',
    }
    // A stale asset version is answered with 409 and the current one (as the main bench does).
    inertia['x-inertia-version'] = await new Promise<string>((done, fail) => {
      http
        .get(`${base}/`, { headers: inertia }, (res) => {
          res.resume()
          done(String(res.headers['x-inertia-version'] ?? ''))
        })
        .on('error', fail)
    })
    const scenarios = [
      { name: "Search page 'sign', SSR HTML", url: `${base}/search?q=sign`, headers: { host: 'localhost' } },
      { name: "Search page 2 'sign', Inertia JSON", url: `${base}/search?q=sign&page=2`, headers: inertia },
      {
        name: "Search page 'sign' by name, Inertia JSON",
        url: `${base}/search?q=sign&sort=name-asc`,
        headers: inertia,
      },
      {
        name: "Search page 'sign' by price, Inertia JSON",
        url: `${base}/search?q=sign&sort=price-high_low`,
        headers: inertia,
      },
    ]
    const pid = s.child.pid!
    const connections = opts.connections ?? 10
    const durationMs = opts.durationMs ?? 10_000
    const target = (p95: number) =>
      `target < ${SEARCH_P95_TARGET_MS} ms: ${verdict(p95 < SEARCH_P95_TARGET_MS)}`
    const errorsOf = (r: LoadResult) => (r.errors + r.non2xx ? ` (${r.errors + r.non2xx} errors)` : '')
    for (const sc of scenarios) {
      await load({ url: sc.url, headers: sc.headers, connections, durationMs: 2000 })
      // Closed loop: `connections` requests always in flight. The client's p95 includes the
      // queueing of the others (about connections × the service time once the server saturates);
      // the server's CPU per request is the cost, whatever the queue.
      const cpuBefore = cpuMsOf(pid)
      const r = await load({ url: sc.url, headers: sc.headers, connections, durationMs })
      const cpuPerRequest = (cpuMsOf(pid) - cpuBefore) / Math.max(1, r.requests)
      const p95 = r.server?.p95 ?? Number.NaN
      console.log(
        `search100k: ${sc.name}, ${connections} connections: ${r.rps.toFixed(0)} req/s, client p50 ${r.p50.toFixed(1)} ms, client p95 ${r.p95.toFixed(1)} ms (${target(r.p95)}), server p50 ${r.server?.p50.toFixed(2)} ms, server p95 ${p95.toFixed(2)} ms (${target(p95)}), server CPU ${cpuPerRequest.toFixed(2)} ms per request${errorsOf(r)}`,
      )
      // Open loop: requests start on a fixed schedule, latency measured from when each was due.
      for (const rate of SEARCH_RATES) {
        const f = await rateLoad({ url: sc.url, headers: sc.headers, rate, durationMs })
        console.log(
          `search100k: ${sc.name}, fixed ${rate} req/s: ${f.rps.toFixed(0)} req/s, client p50 ${f.p50.toFixed(1)} ms, client p95 ${f.p95.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms (${target(f.p95)}), server p95 ${f.server?.p95.toFixed(2)} ms${errorsOf(f)}`,
        )
      }
    }
    console.log(
      `search100k: load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    )
  } finally {
    await stop(s.child)
  }
}
