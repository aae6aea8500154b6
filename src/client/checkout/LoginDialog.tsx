/**
 * The checkout's login dialog (§2 Modals, §7 POST /login with redirect false): Email, Password,
 * 'Forgot your password?' and Log In. Success reloads the checkout; errors are listed in a
 * <div role="alert"> (the list itself keeps its list semantics), the password is cleared, and
 * the focus goes to the message so it is heard and the buyer starts again from it.
 */
import { router } from '@inertiajs/react'
import { useEffect, useRef, useState } from 'react'
import { Modal, primaryButton } from '../components/cart/Modal.tsx'

export function LoginDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<string[]>([])
  const [processing, setProcessing] = useState(false)
  const alertRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (errors.length) alertRef.current?.focus()
  }, [errors])

  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setProcessing(true)
    router.post(
      '/login',
      { email, password, remember: '', redirect: false },
      {
        preserveScroll: true,
        onSuccess: (page) => {
          const errs = (page.props.errors ?? {}) as Record<string, string>
          if (Object.keys(errs).length) setErrors(Object.values(errs))
          else window.location.reload()
        },
        onError: (errs) => setErrors(Object.values(errs)),
        onFinish: () => {
          setPassword('')
          setProcessing(false)
        },
      },
    )
  }
  return (
    <Modal open={open} title="Log In" onClose={onClose} testId="login-modal">
      <form onSubmit={submit} noValidate>
        {errors.length ? (
          <div
            ref={alertRef}
            role="alert"
            tabIndex={-1}
            className="text-sm text-red-700"
            data-testid="login-errors"
          >
            <ul>
              {errors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <label htmlFor="login-email" className="mt-2 block text-sm font-medium">
          Email
        </label>
        <input
          id="login-email"
          type="email"
          autoComplete="email"
          className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor="login-password" className="mt-2 block text-sm font-medium">
          Password
        </label>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p className="mt-2 text-sm">
          <a href="/forgot-password" className="underline">
            Forgot your password?
          </a>
        </p>
        <button type="submit" className={`${primaryButton} mt-4`} disabled={processing}>
          Log In
        </button>
      </form>
    </Modal>
  )
}
