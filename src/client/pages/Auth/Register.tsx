/**
 * Registration (spec §2, §3): first name, last name, e-mail, password twice, terms; the club
 * variant adds club name, address, town, postcode and contact number. A `password_raw` query
 * parameter is shown as the password error and then removed from the address bar.
 */
import { Head, Link, router } from '@inertiajs/react'
import { useEffect } from 'react'
import { clubRegisterSchema, registerSchema, type BotCheckProps } from '../../../shared/auth.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { Checkbox, ErrorList, Heading, SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { useAuthForm } from '../../components/auth/use-auth-form.ts'
import { useShared } from '../../lib/shared-props.ts'

const PASSWORDS = ['password', 'password_confirmation'] as ('password' | 'password_confirmation')[]

const CLUB_FIELDS = [
  { name: 'company', label: 'Club Name', autoComplete: 'organization', type: 'text' },
  { name: 'shipping_address1', label: 'Address', autoComplete: 'address-line1', type: 'text' },
  { name: 'shipping_town', label: 'Town', autoComplete: 'address-level2', type: 'text' },
  { name: 'shipping_postcode', label: 'Postcode', autoComplete: 'postal-code', type: 'text' },
  { name: 'phone', label: 'Contact Number', autoComplete: 'tel', type: 'tel' },
] as const

type FieldName =
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'password'
  | 'password_confirmation'
  | (typeof CLUB_FIELDS)[number]['name']

export default function Register({
  variant = 'standard',
  botCheck = null,
}: {
  variant?: 'standard' | 'club'
  botCheck?: BotCheckProps | null
}) {
  const { site } = useShared()
  const club = variant === 'club'
  const initial = {
    first_name: '',
    last_name: '',
    email: '',
    password: '',
    password_confirmation: '',
    terms: false,
    ...(club
      ? { company: '', shipping_address1: '', shipping_town: '', shipping_postcode: '', phone: '' }
      : {}),
  }
  const f = useAuthForm(
    club ? clubRegisterSchema : registerSchema,
    initial as Record<string, string | boolean>,
    {
      passwordFields: PASSWORDS,
      botCheck,
    },
  )
  const { setError } = f

  useEffect(() => {
    const url = new URL(window.location.href)
    const raw = url.searchParams.get('password_raw')
    if (raw === null) return
    if (raw) setError('password', raw.slice(0, 300))
    url.searchParams.delete('password_raw')
    // A client-side replace updates Inertia's page URL too, so history never brings it back.
    router.replace({
      url: `${url.pathname}${url.search}${url.hash}`,
      preserveState: true,
      preserveScroll: true,
    })
  }, [setError])

  const field = (name: FieldName, label: string, type = 'text', autoComplete?: string) => (
    <TextField
      key={name}
      label={label}
      name={name}
      type={type}
      autoComplete={autoComplete}
      required
      value={String(f.data[name] ?? '')}
      error={f.clientErrors[name]}
      onChange={(e) => f.change(name, e.target.value)}
      onBlur={() => f.blur(name)}
    />
  )

  return (
    <>
      <Head title={pageTitle({ page: 'register', club }, site?.name)} />
      <Heading>{club ? 'Club Registration' : 'Register'}</Heading>
      <ErrorList errors={{ ...f.serverErrors, bot: f.botError ?? undefined }} />
      <form
        method="post"
        action={club ? '/register/club' : '/customer/create'}
        noValidate
        onSubmit={f.submit(club ? '/register/club' : '/customer/create')}
      >
        {field('first_name', 'First Name', 'text', 'given-name')}
        {field('last_name', 'Last Name', 'text', 'family-name')}
        {field('email', 'Email', 'email', 'email')}
        {club ? CLUB_FIELDS.map((c) => field(c.name, c.label, c.type, c.autoComplete)) : null}
        {field('password', 'Password', 'password', 'new-password')}
        {field('password_confirmation', 'Confirm Password', 'password', 'new-password')}
        <p className="mt-2 text-xs text-gray-600">
          At least 10 characters, including a number, a letter and a symbol.
        </p>
        <Checkbox
          name="terms"
          checked={Boolean(f.data.terms)}
          onChange={(v) => f.change('terms', v)}
          error={f.errorFor('terms')}
          label={
            <>
              I agree to the{' '}
              <a href="/terms-and-conditions" className="underline">
                terms and conditions
              </a>
            </>
          }
        />
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <Link href="/login" className="text-sm text-gray-700 underline hover:text-gray-900">
            Already registered?
          </Link>
          <SubmitButton processing={f.processing}>Register</SubmitButton>
        </div>
      </form>
    </>
  )
}
