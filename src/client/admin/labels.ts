/** Words the back office shows for the order states (the customer account's words are its own). */
export const STATUS_LABELS: Record<string, string> = {
  pending_payment: 'Awaiting payment',
  placed: 'Placed',
  payment_failed: 'Payment failed',
}
