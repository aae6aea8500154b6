import type { PaymentAttemptRow } from './payments.tables.ts'

export class PaymentError extends Error {
  constructor(
    public readonly code: 'not_found' | 'not_configured' | 'already_paid' | 'unsettled' | 'invalid_state',
    message: string,
    public readonly attempt?: PaymentAttemptRow,
  ) {
    super(message)
    this.name = 'PaymentError'
  }
}
