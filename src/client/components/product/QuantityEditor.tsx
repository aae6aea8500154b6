/**
 * Minus, a number field and plus, following the quantity rules in src/shared/quantity.ts. The
 * field keeps the visitor's own text while they type (capped at 9999 at once); the quantity that
 * counts is reported on every change, and the field shows it again when it loses focus.
 */
import { useState } from 'react'
import {
  blurQuantity,
  decrement,
  displayWhileTyping,
  increment,
  typedQuantity,
  type QuantityRule,
} from '../../../shared/quantity.ts'

export interface QuantityEditorProps {
  value: number
  rule: QuantityRule
  onChange: (quantity: number) => void
  /** Accessible name of the field, e.g. 'Quantity for FS-101' */
  label: string
  id?: string
  disabled?: boolean
  className?: string
}

export function QuantityEditor({
  value,
  rule,
  onChange,
  label,
  id,
  disabled,
  className = '',
}: QuantityEditorProps) {
  const [draft, setDraft] = useState<string | null>(null)
  const text = draft ?? String(value)
  // Disabled is announced (aria-disabled) but the controls stay focusable: a basket '+' that is
  // busy for a moment keeps the keyboard focus instead of dropping it to the page.
  const step = (next: number) => {
    if (disabled) return
    setDraft(null)
    onChange(next)
  }
  return (
    // Styled as `.qty` and its buttons and field in price-grid.css (no class on each of them).
    <div className={className ? `qty ${className}` : 'qty'} data-testid="quantity-editor">
      <button
        type="button"
        aria-label={`Decrease ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
        aria-disabled={disabled || undefined}
        onClick={() => step(decrement(text, rule))}
      >
        −
      </button>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="off"
        aria-label={label}
        aria-disabled={disabled || undefined}
        readOnly={disabled}
        value={text}
        onChange={(e) => {
          if (disabled) return
          const shown = displayWhileTyping(e.target.value, rule)
          setDraft(shown)
          onChange(typedQuantity(shown, rule))
        }}
        onBlur={() => {
          if (draft === null) return
          setDraft(null)
          onChange(blurQuantity(draft, rule))
        }}
      />
      <button
        type="button"
        aria-label={`Increase ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
        aria-disabled={disabled || undefined}
        onClick={() => step(increment(text, rule))}
      >
        +
      </button>
    </div>
  )
}
