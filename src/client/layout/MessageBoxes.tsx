/**
 * Fixed boxes at the bottom of the screen: red for errors, orange for warnings. They show the
 * server's flash error / warning of the current page (once: flash never comes back with history)
 * and anything pushed through useMessages(). Each box is dismissed with its cross button.
 */
import { useState } from 'react'
import type { FlashData } from '../../shared/page-props.ts'
import { useMessages, type MessageLevel } from '../lib/messages.tsx'
import { CloseIcon } from './icons.tsx'

function Box({
  level,
  messages,
  onDismiss,
}: {
  level: MessageLevel
  messages: string[]
  onDismiss: () => void
}) {
  const isError = level === 'error'
  return (
    <div
      role={isError ? 'alert' : 'status'}
      data-testid={`${level}-box`}
      className={`pointer-events-auto mx-auto flex w-full max-w-3xl items-start gap-3 rounded-md p-3 shadow-lg ${
        isError ? 'bg-red-700 text-white' : 'bg-orange-400 text-black'
      }`}
    >
      <ul className="flex-1 space-y-1 text-sm font-medium">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={isError ? 'Dismiss error' : 'Dismiss warning'}
        className="-m-1 rounded p-1 text-lg hover:bg-black/15"
      >
        <CloseIcon />
      </button>
    </div>
  )
}

export function MessageBoxes({ flash }: { flash: FlashData }) {
  const { messages, dismiss } = useMessages()
  // The flash object a box was dismissed for; a new page brings a new flash object.
  const [dismissed, setDismissed] = useState<{ error?: FlashData; warning?: FlashData }>({})

  const collect = (level: MessageLevel): string[] => {
    const fromServer = dismissed[level] === flash ? undefined : flash[level]
    return [...new Set([...(fromServer ? [fromServer] : []), ...messages[level]])]
  }
  const errors = collect('error')
  const warnings = collect('warning')
  const close = (level: MessageLevel) => () => {
    setDismissed((d) => ({ ...d, [level]: flash }))
    dismiss(level)
  }

  if (errors.length === 0 && warnings.length === 0) return null
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col gap-2 p-3">
      {errors.length > 0 && <Box level="error" messages={errors} onDismiss={close('error')} />}
      {warnings.length > 0 && <Box level="warning" messages={warnings} onDismiss={close('warning')} />}
    </div>
  )
}
