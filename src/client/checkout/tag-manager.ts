/** The tag manager's view of the buyer (§9): phone numbers with a leading 0 turned into +44. */
export function tagManagerPhone(phone: string): string {
  const compact = phone.replace(/[\s().-]/g, '')
  return compact.startsWith('0') ? `+44${compact.slice(1)}` : compact
}
