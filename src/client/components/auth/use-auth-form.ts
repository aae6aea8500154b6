/**
 * One hook for every authentication form: Inertia's useForm plus the shared zod rules, checked
 * for a field when it loses focus and for the whole form on submit. Submitting is blocked while
 * any rule fails; password fields are cleared when a submit finishes; when the site's bot check
 * is on, the token is fetched invisibly and sent as `g-recaptcha-response`.
 */
import { useForm } from '@inertiajs/react'
import { useCallback, useMemo, useState, type FormEvent } from 'react'
import type { z } from 'zod'
import { fieldErrors, type BotCheckProps } from '../../../shared/auth.ts'
import { botToken } from './bot-check.ts'

type Values = Record<string, string | boolean>

export function useAuthForm<T extends Values>(
  schema: z.ZodType,
  initial: T,
  options: {
    passwordFields?: (keyof T & string)[]
    botCheck?: BotCheckProps | null
    /** Shapes the data as the server's call expects it (e.g. remember as 'on' or empty) */
    serialize?: (data: T) => Record<string, unknown>
  } = {},
) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Inertia's FormDataType is stricter than a record
  const form = useForm<any>(initial) as ReturnType<typeof useForm<any>> & { data: T }
  const [touched, setTouched] = useState<Set<string>>(() => new Set())
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({})
  const [botError, setBotError] = useState<string | null>(null)
  const [solving, setSolving] = useState(false)
  const passwordFields = useMemo(() => options.passwordFields ?? [], [options.passwordFields])

  const validate = useCallback(
    (data: Values, fields: Set<string> | null) => fieldErrors(schema, data, fields ?? undefined),
    [schema],
  )

  const blur = (name: keyof T & string) => {
    const next = new Set(touched).add(name)
    // The confirmation is re-checked when the password changes, once it has been touched.
    setTouched(next)
    setClientErrors(validate(form.data, next))
  }

  const change = (name: keyof T & string, value: string | boolean) => {
    form.setData(name as never, value as never)
    if (touched.has(name) || (name === 'password' && touched.has('password_confirmation'))) {
      setClientErrors(validate({ ...form.data, [name]: value }, touched))
    }
  }

  const submit =
    (url: string, extra: { onSuccess?: () => void } = {}) =>
    async (event?: FormEvent) => {
      event?.preventDefault()
      const all = new Set(Object.keys(initial))
      setTouched(all)
      const errors = validate(form.data, null)
      setClientErrors(errors)
      if (Object.keys(errors).length > 0) return
      setBotError(null)
      let token: string | null = null
      if (options.botCheck) {
        setSolving(true)
        try {
          token = await botToken(options.botCheck)
        } catch {
          setBotError('The security check could not run. Please refresh the page and try again.')
          return
        } finally {
          setSolving(false)
        }
      }
      const serialize = options.serialize ?? ((d: T) => d)
      form.transform((data) => {
        const shaped = serialize(data as T)
        return token ? { ...shaped, 'g-recaptcha-response': token } : shaped
      })
      form.post(url, {
        preserveScroll: true,
        onFinish: () => {
          if (passwordFields.length > 0) form.reset(...(passwordFields as never[]))
        },
        ...(extra.onSuccess ? { onSuccess: extra.onSuccess } : {}),
      })
    }

  const serverErrors = form.errors as Record<string, string | undefined>
  /** Client errors first; a server error shows until the field is edited and checked again. */
  const errorFor = (name: string): string | undefined => clientErrors[name] ?? serverErrors[name]

  return {
    data: form.data,
    processing: form.processing || solving,
    serverErrors,
    clientErrors,
    botError,
    errorFor,
    blur,
    change,
    submit,
    setError: (field: string, message: string) => setClientErrors((e) => ({ ...e, [field]: message })),
  }
}
