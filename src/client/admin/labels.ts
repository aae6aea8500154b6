/** Words the back office shows for the order states (the customer account's words are its own). */
export const STATUS_LABELS: Record<string, string> = {
  pending_payment: 'Awaiting payment',
  placed: 'Placed',
  payment_failed: 'Payment failed',
}

/**
 * Every state an order may show in the list or on its page: the filterable ones above and the
 * ones the staff's actions lead to (the status filter offers only STATUS_LABELS).
 */
export const ORDER_STATE_WORDS: Record<string, string> = {
  ...STATUS_LABELS,
  held: 'On hold',
  partially_shipped: 'Partly shipped',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
}

/** Words for the payment methods (the orders keep their ids: 'sagepay', 'purchase_order'). */
export const METHOD_WORDS: Record<string, string> = {
  sagepay: 'Card (Opayo)',
  paya: 'Card (Paya)',
  paypal: 'PayPal',
  amazon: 'Amazon Pay',
  purchase_order: 'Purchase order',
}

/** A payment method's words, or its id when the back office does not know it. */
export function methodWords(method: string): string {
  return METHOD_WORDS[method] ?? method
}
