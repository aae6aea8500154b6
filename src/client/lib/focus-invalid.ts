/**
 * After a submit that failed, the focus goes to the first field marked invalid, whose message is
 * its description: a screen reader reads the field and what is wrong, and the keyboard is where
 * the fix is. `attempt` changes once per failed submit (a counter, or the errors object itself).
 */
import { useEffect, type RefObject } from 'react'

export function firstInvalid(root: ParentNode | null | undefined): HTMLElement | null {
  return root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? null
}

export function useFocusFirstInvalid(root: RefObject<HTMLElement | null>, attempt: unknown): void {
  useEffect(() => {
    if (attempt) firstInvalid(root.current)?.focus()
  }, [attempt, root])
}
