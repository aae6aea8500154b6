/**
 * CPU time of processes, read from `/proc/<pid>/stat` (Linux): user plus system time, which the
 * kernel counts in clock ticks (10 ms at the usual 100 per second). The basket bench divides what
 * the server and the database spent during a scenario by its requests: where the time goes
 * (JavaScript, or PostgreSQL's backends) when a figure moves. Elsewhere every reading is null.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
}
const TICKS_PER_SECOND = clockTicks()

/** A process's CPU time so far in milliseconds; null when it is gone or there is no /proc. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields 14 (utime) and 15 (stime); `fields` starts at field 3.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    return null
  }
}

/** CPU milliseconds of each process of `pids` (missing ones left out). */
function snapshot(pids: number[]): Map<number, number> {
  const out = new Map<number, number>()
  for (const pid of pids) {
    const ms = cpuMs(pid)
    if (ms !== null) out.set(pid, ms)
  }
  return out
}

export interface CpuSpent {
  /** The server process, milliseconds (with PGlite, the database's work is in here too) */
  app: number | null
  /** PostgreSQL's backends serving the app, milliseconds; null with PGlite */
  database: number | null
}

/**
 * Starts counting: the returned function gives the CPU time spent since by the server and by
 * the database processes `databasePids` lists (asked again at the end, so backends the pool
 * opened meanwhile count from zero).
 */
export async function cpuSince(
  appPid: number | undefined,
  databasePids: (() => Promise<number[]>) | null,
): Promise<() => Promise<CpuSpent>> {
  const appStart = appPid ? cpuMs(appPid) : null
  const dbStart = databasePids ? snapshot(await databasePids()) : null
  return async () => {
    const appEnd = appPid ? cpuMs(appPid) : null
    let database: number | null = null
    if (databasePids && dbStart) {
      database = 0
      for (const [pid, ms] of snapshot(await databasePids())) database += ms - (dbStart.get(pid) ?? 0)
    }
    return { app: appStart !== null && appEnd !== null ? appEnd - appStart : null, database }
  }
}
