/**
 * A boolean remembered in sessionStorage for the browser session, readable as a hook.
 * `undefined` means "not known yet" (SSR / hydration), `null` means "nothing stored".
 */
import { useCallback, useSyncExternalStore } from 'react'

const listeners = new Set<() => void>()

function read(key: string): boolean | null {
  try {
    const value = window.sessionStorage.getItem(key)
    return value === '1' ? true : value === '0' ? false : null
  } catch {
    return null // storage disabled (private mode, sandboxed frame)
  }
}

export function writeSessionFlag(key: string, value: boolean): void {
  try {
    window.sessionStorage.setItem(key, value ? '1' : '0')
  } catch {
    // Not remembered, but the choice still applies to this page view through the memory copy.
  }
  memory.set(key, value)
  listeners.forEach((notify) => notify())
}

/** Fallback copy for when storage throws, so a choice still sticks for this page view. */
const memory = new Map<string, boolean>()

export function useSessionFlag(key: string): [boolean | null | undefined, (value: boolean) => void] {
  const value = useSyncExternalStore<boolean | null | undefined>(
    (notify) => {
      listeners.add(notify)
      return () => listeners.delete(notify)
    },
    () => read(key) ?? memory.get(key) ?? null,
    () => undefined,
  )
  const set = useCallback((next: boolean) => writeSessionFlag(key, next), [key])
  return [value, set]
}
