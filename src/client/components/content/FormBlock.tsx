/**
 * A form embedded by form id. The embedded store defines the form in content (`forms/{id}`); each
 * submission is stored and e-mailed to the site contact by the server.
 */
import { useId, useState, type FormEvent } from 'react'
import { NEWSLETTER_ERROR, type FormDefinition, type PresentedBlok } from '../../../shared/content.ts'
import { requestJson } from '../../lib/json-client.ts'

export function FormBlock({ blok }: { blok: PresentedBlok }) {
  const id = useId()
  const form = (blok.definition ?? null) as FormDefinition | null
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  if (!form) return null

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    if (state !== 'idle') return
    const data = Object.fromEntries(new FormData(e.currentTarget).entries())
    const local: Record<string, string> = {}
    for (const f of form.fields) {
      if (f.required && !String(data[f.name] ?? '').trim()) local[f.name] = `${f.label} is required.`
    }
    setErrors(local)
    setFailure(null)
    if (Object.keys(local).length) return
    setState('sending')
    const res = await requestJson<{ errors?: Record<string, string> }>(
      'POST',
      `/forms/${encodeURIComponent(form.id)}`,
      data,
    )
    if (res.ok) {
      setState('sent')
      return
    }
    if (res.status === 422 && res.data?.errors) setErrors(res.data.errors)
    else setFailure(NEWSLETTER_ERROR)
    setState('idle')
  }

  if (state === 'sent') {
    return (
      <div role="status" className="rounded-md border border-green-700 bg-green-50 p-4 text-green-900">
        {form.successMessage}
      </div>
    )
  }
  const input = 'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2'
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="space-y-4"
      data-testid="content-form"
    >
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {form.title}
      </h2>
      {form.fields.map((f) => {
        const fid = `${id}-${f.name}`
        const err = errors[f.name]
        const common = {
          id: fid,
          name: f.name,
          required: f.required,
          maxLength: f.maxLength,
          className: input,
          'aria-invalid': err ? true : undefined,
          'aria-describedby': err ? `${fid}-error` : undefined,
        }
        return (
          <div key={f.name}>
            <label htmlFor={fid} className="text-sm font-medium">
              {f.label}
              {f.required ? ' (required)' : ''}
            </label>
            {f.type === 'textarea' ? <textarea rows={5} {...common} /> : <input type={f.type} {...common} />}
            {err ? (
              <p id={`${fid}-error`} className="mt-1 text-sm text-red-700">
                {err}
              </p>
            ) : null}
          </div>
        )
      })}
      <button
        type="submit"
        disabled={state === 'sending'}
        className="rounded-md bg-primary px-4 py-2 font-semibold text-on-primary disabled:opacity-60"
      >
        {state === 'sending' ? 'Sending...' : form.submitLabel}
      </button>
      {failure ? (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      ) : null}
    </form>
  )
}
