/** Failures of a cart operation, mapped to HTTP answers by the routes. */
export class CartNotFoundError extends Error {
  readonly status = 404
  constructor(message = 'Not Found') {
    super(message)
  }
}

/** A request the cart refuses: 422 with messages per field (`items.0.quantity`). */
export class CartValidationError extends Error {
  readonly status = 422
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors)[0]?.[0] ?? 'The given data was invalid.')
  }
}

export function invalid(field: string, message: string): CartValidationError {
  return new CartValidationError({ [field]: [message] })
}
