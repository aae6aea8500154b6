/**
 * Authentication forms: the spec's rules and messages (checkout-and-account.md §5, §8), as zod
 * schemas used by the browser (on blur and on submit) and by the server (on every request).
 */
import { text } from './text.ts'
import { z } from 'zod'

import { AUTH_MESSAGES, FIELD_MAX, isStrongPassword, PASSWORD_MAX } from './auth-text.ts'

export { AUTH_MESSAGES, isStrongPassword, PASSWORD_MAX } from './auth-text.ts'

const required = (max = FIELD_MAX) =>
  text({ error: AUTH_MESSAGES.required })
    .trim()
    .min(1, AUTH_MESSAGES.required)
    .max(max, AUTH_MESSAGES.tooLong(max))

/** E-mail: required, must contain an @ (spec §5); stored trimmed and lower-cased. */
export const emailField = required().pipe(
  text()
    .regex(/^[^\s@]+@[^\s@]+$/, AUTH_MESSAGES.emailInvalid)
    .transform((v) => v.toLowerCase()),
)

/** A password as typed (never trimmed): required, within the hashing cap. */
const passwordAsTyped = text({ error: AUTH_MESSAGES.required })
  .min(1, AUTH_MESSAGES.required)
  .max(PASSWORD_MAX, AUTH_MESSAGES.tooLong(PASSWORD_MAX))

const newPassword = passwordAsTyped.refine(isStrongPassword, AUTH_MESSAGES.password)

/** Adds the 'Passwords do not match.' rule on password_confirmation. */
function withConfirmation<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({
      ...shape,
      password: newPassword,
      password_confirmation: text({ error: AUTH_MESSAGES.required }).min(1, AUTH_MESSAGES.required),
    })
    .refine(
      (v) =>
        (v as { password: string }).password ===
        (v as { password_confirmation: string }).password_confirmation,
      {
        message: AUTH_MESSAGES.passwordMismatch,
        path: ['password_confirmation'],
      },
    )
}

const checkbox = z
  .union([z.boolean(), z.enum(['on', '1', 'true', '', 'off', '0', 'false'])])
  .optional()
  .transform((v) => v === true || v === 'on' || v === '1' || v === 'true')

const botToken = text().max(20_000).optional()

export const loginSchema = z.object({
  email: emailField,
  password: passwordAsTyped,
  remember: checkbox,
  /** true on the login page (go on to the account), false from checkout (stay on the page) */
  redirect: checkbox.optional(),
})

export const registerFields = {
  first_name: required(),
  last_name: required(),
  email: emailField,
  // The spec's 'Please accept the terms and conditions.': registration needs the box ticked.
  terms: z
    .union([z.boolean(), text()])
    .optional()
    .refine((v) => v === true || v === 'true' || v === 'on' || v === '1', AUTH_MESSAGES.terms),
  'g-recaptcha-response': botToken,
}

export const registerSchema = withConfirmation(registerFields)

/** The club variant adds club name (company), address, town, postcode and contact number. */
export const clubRegisterSchema = withConfirmation({
  ...registerFields,
  company: required(),
  shipping_address1: required(),
  shipping_town: required(100),
  shipping_postcode: required(20),
  phone: required(18)
    .pipe(text().min(10, 'Please enter at least 10 characters.'))
    .refine((v) => /^\d+$/.test(v.replace(/[\s\-()+]/g, '')), 'Not a valid phone number'),
})

export const forgotPasswordSchema = z.object({
  email: emailField,
  'g-recaptcha-response': botToken,
})

export const resetPasswordSchema = withConfirmation({
  token: text().trim().min(1, AUTH_MESSAGES.resetInvalid).max(200, AUTH_MESSAGES.resetInvalid),
  email: emailField,
})

export const confirmPasswordSchema = z.object({ password: passwordAsTyped })

export const twoFactorSchema = z
  .object({
    code: text().trim().max(20).optional().default(''),
    recovery_code: text().trim().max(40).optional().default(''),
  })
  .refine((v) => v.code !== '' || v.recovery_code !== '', {
    message: AUTH_MESSAGES.required,
    path: ['code'],
  })

export const twoFactorConfirmSchema = z.object({
  code: text({ error: AUTH_MESSAGES.required })
    .trim()
    .regex(/^\d{6}$/, AUTH_MESSAGES.twoFactorCode),
})

/**
 * Field-by-field errors for the browser: the first message per field, or {} when valid.
 * `only` limits the result to the fields already touched (blur) so untouched ones stay quiet.
 */
export function fieldErrors(
  schema: z.ZodType,
  values: Record<string, unknown>,
  only?: Iterable<string>,
): Record<string, string> {
  const result = schema.safeParse(values)
  if (result.success) return {}
  const allowed = only ? new Set(only) : null
  const out: Record<string, string> = {}
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || 'form'
    if (allowed && !allowed.has(key)) continue
    out[key] ??= issue.message
  }
  return out
}

/** Status flash for auth pages: red when a type is given, green without (spec §8). */
export interface AuthStatus {
  message: string
  type?: 'error'
}

/** The bot check the browser must run before submitting ('1' on the site: on). */
export type BotCheckProps =
  { provider: 'altcha'; challengeUrl: string } | { provider: 'recaptcha'; siteKey: string }
