/**
 * What the PayPal and Amazon Pay components share: the §8 texts and the read-only view of the details the provider returned (ADR 0073). Their
 * JSON calls go through lib/json-client.ts.
 */
export const WALLET_TEXT = {
  paypalOpen: 'Error opening PayPal window. Please refresh the page and try again.',
  paypalAddress:
    'Error getting address information from PayPal. Payment has not been taken. Please click on the PayPal button and try again.',
  paypalShipping: 'Error updating shipping options. Please click on the PayPal button and try again.',
  paypalTimeout: 'Loading of PayPal timed out after 6 seconds',
  amazonRender: 'Amazon payment button failed to render',
} as const

export interface ImportedDetails {
  contact: Record<string, string>
  shipping_address: Record<string, string>
}
