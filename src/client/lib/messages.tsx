/**
 * Client-side messages for the fixed error and warning boxes at the bottom of the layout.
 * Components call useMessages().pushError(...) / pushWarning(...); the layout renders them
 * together with the server's flash error / warning.
 */
import { createContext, use, useMemo, useState, type ReactNode } from 'react'

export type MessageLevel = 'error' | 'warning'

export interface MessagesApi {
  pushError: (message: string) => void
  pushWarning: (message: string) => void
  dismiss: (level: MessageLevel) => void
}

interface MessagesState {
  error: string[]
  warning: string[]
}

const MessagesContext = createContext<(MessagesApi & { messages: MessagesState }) | null>(null)

export function MessagesProvider({ children }: { children: ReactNode }) {
  const [messages, setMessages] = useState<MessagesState>({ error: [], warning: [] })
  // The push functions stay the same across renders, so components can use them in effects.
  const api = useMemo<MessagesApi>(() => {
    const push = (level: MessageLevel) => (message: string) => {
      const text = message.trim()
      if (!text) return
      setMessages((m) => (m[level].includes(text) ? m : { ...m, [level]: [...m[level], text] }))
    }
    return {
      pushError: push('error'),
      pushWarning: push('warning'),
      dismiss: (level) => setMessages((m) => ({ ...m, [level]: [] })),
    }
  }, [])
  const value = useMemo(() => ({ ...api, messages }), [api, messages])
  return <MessagesContext value={value}>{children}</MessagesContext>
}

const outside: MessagesApi & { messages: MessagesState } = {
  messages: { error: [], warning: [] },
  pushError: (message) => console.error(message),
  pushWarning: (message) => console.warn(message),
  dismiss: () => {},
}

/** Push messages into the layout's error / warning boxes. Safe outside the layout (logs instead). */
export function useMessages(): MessagesApi & { messages: MessagesState } {
  return use(MessagesContext) ?? outside
}
