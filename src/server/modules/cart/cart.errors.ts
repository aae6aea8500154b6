/**
 * The basket's refusals: domain errors (ADR 0171), answered by the error handler's one table
 * (404 `{ message }`, 422 `{ message, errors }`), never by the routes.
 */
import { DomainError } from '../../lib/domain-error.ts'

/** The basket, line or saved basket is not the asker's, or does not exist. */
export class CartNotFoundError extends DomainError {
  constructor(message = 'Not Found') {
    super('not_found', message)
  }
}

/** A request the cart refuses: messages per field (`items.0.quantity`), nothing changed. */
export class CartValidationError extends DomainError {
  constructor(readonly errors: Record<string, string[]>) {
    super('invalid', Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', errors)
  }
}

export function invalid(field: string, message: string): CartValidationError {
  return new CartValidationError({ [field]: [message] })
}
