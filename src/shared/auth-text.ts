/**
 * Authentication rules and messages without zod, for pages that show a message but validate no
 * form (shared/auth.ts builds the schemas from these and re-exports them).
 */
export const PASSWORD_MIN = 10
/** Long passphrases are welcome; the cap only bounds the hashing work per request. */
export const PASSWORD_MAX = 128
export const FIELD_MAX = 255

export const AUTH_MESSAGES = {
  password: 'Password must be at least 10 characters and include a number, letter, and symbol.',
  passwordMismatch: 'Passwords do not match.',
  required: 'This field is required.',
  emailInvalid: 'This email provided is invalid.',
  tooLong: (n: number) => `Please enter no more than ${n} characters.`,
  terms: 'Please accept the terms and conditions.',
  credentials: 'These credentials do not match our records.',
  disabled: 'This account has been disabled. Please contact us if you think this is a mistake.',
  twoFactorReset:
    'Your two-factor authentication was reset. Please set it up again to keep your account safe.',
  throttled: (seconds: number) =>
    `Too many login attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  resetLinkSent: 'If an account exists for that email address, we have emailed a password reset link.',
  resetThrottled: (seconds: number) =>
    `Too many attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  resetDone: 'Your password has been reset. Please log in with your new password.',
  resetInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  resetFailed: 'Failed to update password. Please try again.',
  verificationSent:
    'A new verification link has been sent to the email address you provided during registration.',
  verificationInvalid: 'This verification link is invalid or has expired. Please request a new one.',
  verified: 'Thank you, your email address has been verified.',
  confirmPassword:
    'This is a secure area of the application. Please confirm your password before continuing.',
  wrongPassword: 'The provided password is incorrect.',
  twoFactorCode: 'The provided two factor authentication code was invalid.',
  twoFactorRecovery: 'The provided two factor recovery code was invalid.',
  twoFactorLocked:
    'Too many invalid codes. For your security, please log in again later or reset your password.',
  twoFactorExpired: 'Your login has timed out. Please log in again.',
  botMissing: 'Please complete the security check and try again.',
  botInvalid: 'The security check failed or has already been used. Please try again.',
} as const

/** At least 10 characters with a digit, a letter and a symbol (anything that is neither). */
export function isStrongPassword(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN &&
    /\p{Nd}/u.test(value) &&
    /\p{L}/u.test(value) &&
    /[^\p{L}\p{Nd}\s]/u.test(value)
  )
}
