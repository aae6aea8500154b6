/**
 * The back office's forms: Inertia's useForm with the shared zod rules (checked for a field when
 * it loses focus and for the whole form on submit) and the back office's CSRF header. Server
 * errors arrive as the page's `errors` prop.
 */
import { useForm, usePage } from '@inertiajs/react'
import { useState, type FormEvent } from 'react'
import type { z } from 'zod'
import { fieldErrors } from '../../shared/auth.ts'
import { adminProps, csrfHeaders } from './admin-props.ts'

type Values = Record<string, string>

export function useAdminForm<T extends Values>(schema: z.ZodType | null, initial: T) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Inertia's FormDataType is stricter than a record
  const form = useForm<any>(initial) as ReturnType<typeof useForm<any>> & { data: T }
  const page = usePage()
  const { admin } = adminProps(page.props)
  const serverErrors = (page.props.errors ?? {}) as Record<string, string | undefined>
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({})
  const [touched, setTouched] = useState<Set<string>>(() => new Set())

  const check = (data: Values, only: Set<string> | null) =>
    schema ? fieldErrors(schema, data, only ?? undefined) : {}

  return {
    data: form.data,
    processing: form.processing,
    errorFor: (name: string): string | undefined => clientErrors[name] ?? serverErrors[name],
    formError: serverErrors.form,
    change: (name: keyof T & string, value: string) => {
      form.setData(name as never, value as never)
      if (touched.has(name)) setClientErrors(check({ ...form.data, [name]: value }, touched))
    },
    blur: (name: keyof T & string) => {
      const next = new Set(touched).add(name)
      setTouched(next)
      setClientErrors(check(form.data, next))
    },
    submit:
      (url: string, opts: { reset?: (keyof T & string)[] } = {}) =>
      (event?: FormEvent) => {
        event?.preventDefault()
        setTouched(new Set(Object.keys(initial)))
        const errors = check(form.data, null)
        setClientErrors(errors)
        if (Object.keys(errors).length > 0) return
        form.post(url, {
          headers: csrfHeaders(admin),
          preserveScroll: true,
          onSuccess: () => {
            if (opts.reset) form.reset(...(opts.reset as never[]))
          },
        })
      },
  }
}
