/**
 * Customer/MarketingPreferences (spec §2, §3 Marketing preference, §7, §8): the named preferences
 * with their descriptions; saving sends every choice (POST /customer/marketing-update) and the
 * server keeps each change with its time and wording.
 */
import { useState, type FormEvent } from 'react'
import { ACCOUNT_TEXT } from '../../../shared/account-text.ts'
import type { MarketingPreference, MarketingProps } from '../../../shared/account.ts'
import {
  AccountLayout,
  failureText,
  mainButton,
  type Notice,
} from '../../components/account/AccountLayout.tsx'
import { useFormat } from '../../components/account/format.ts'
import { requestJson } from '../../lib/json-client.ts'

export default function MarketingPreferences({ greeting, preferences }: MarketingProps) {
  const f = useFormat()
  const [choices, setChoices] = useState<MarketingPreference[]>(preferences)
  const [notice, setNotice] = useState<Notice | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    const res = await requestJson<{ preferences?: MarketingPreference[] }>(
      'POST',
      '/customer/marketing-update',
      {
        preferences: choices.map((c) => ({ name: c.name, status: c.status })),
      },
    )
    setBusy(false)
    if (res.ok) {
      if (res.data?.preferences) setChoices(res.data.preferences)
      setNotice({ kind: 'success', text: ACCOUNT_TEXT.preferencesUpdated })
    } else setNotice({ kind: 'error', text: failureText(res.data, ACCOUNT_TEXT.preferencesFailed) })
  }

  return (
    <AccountLayout
      title="Marketing Preferences"
      titleFor={{ page: 'marketingPreferences' }}
      greeting={greeting}
      here="/customer/marketing-preferences"
      notice={notice}
    >
      <form onSubmit={submit} className="max-w-xl">
        <fieldset>
          <legend className="text-sm text-gray-700">
            Choose how we may contact you about offers and news.
          </legend>
          <ul className="mt-3 space-y-3">
            {choices.map((p) => (
              <li key={p.name} className="rounded-md border border-gray-200 p-3">
                <label className="flex items-start gap-3">
                  <input
                    type="checkbox"
                    name={p.name}
                    checked={p.status}
                    onChange={(e) =>
                      setChoices((list) =>
                        list.map((c) => (c.name === p.name ? { ...c, status: e.target.checked } : c)),
                      )
                    }
                    className="mt-1 h-5 w-5"
                    aria-describedby={`pref-${p.name}-desc`}
                  />
                  <span>
                    <span className="block font-semibold">{p.label}</span>
                    <span id={`pref-${p.name}-desc`} className="block text-sm text-gray-700">
                      {p.description}
                      {p.updatedAt ? ` (last changed ${f.date(p.updatedAt)})` : ''}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <button type="submit" className={`${mainButton} mt-4`} disabled={busy}>
          Save preferences
        </button>
      </form>
    </AccountLayout>
  )
}
