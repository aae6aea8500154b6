/**
 * Back office: a site's search redirect rules (a search that goes straight to a page) and the
 * rebuild of its search index. Every role may look; owners and staff change them.
 */
import { Head } from '@inertiajs/react'
import { useRef } from 'react'
import AdminLayout from '../../admin/AdminLayout.tsx'
import { formatDateTime } from '../../admin/admin-props.ts'
import {
  ActionButton,
  FocusError,
  FocusNotice,
  SitePicker,
  focusFirstInvalidSoon,
  useFocusFirstError,
  usePageErrors,
  usePost,
  type SiteChoice,
} from '../../admin/settings-parts.tsx'
import { useAdminForm } from '../../admin/use-admin-form.ts'
import { SubmitButton, TextField } from '../../components/auth/fields.tsx'
import { redirectFormSchema } from '../../../shared/staff-settings.ts'

interface Rule {
  query: string
  url: string
  createdAt: string
}

interface Props {
  sites: SiteChoice[]
  site: { id: number; name: string }
  rules: Rule[]
  lastBuild: { records: number; ms: number } | null
  canAct: boolean
  errors: Record<string, string>
  notice: string | null
}

function AddRule({ siteId }: { siteId: number }) {
  const f = useAdminForm(redirectFormSchema, { intent: 'add', site: String(siteId), query: '', url: '' })
  const ref = useRef<HTMLFormElement>(null)
  useFocusFirstError(ref, usePageErrors())
  return (
    <section
      aria-labelledby="add-rule"
      className="mt-4 max-w-xl rounded-lg border border-gray-200 bg-white p-4"
    >
      <h2 id="add-rule" className="text-lg font-semibold">
        Add a redirect rule
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        A search for exactly these words (any case) goes straight to the page instead of the results. A rule
        for the same words replaces the old one.
      </p>
      <form
        ref={ref}
        method="post"
        action="/admin/search"
        noValidate
        onSubmit={(e) => {
          f.submit('/admin/search', { reset: ['query', 'url'] })(e)
          focusFirstInvalidSoon(ref)
        }}
      >
        <TextField
          label="Search words"
          name="query"
          required
          value={f.data.query}
          error={f.errorFor('query')}
          onChange={(e) => f.change('query', e.target.value)}
          onBlur={() => f.blur('query')}
        />
        <TextField
          label="Go to (a path such as /fire-signs, or an http(s) address)"
          name="url"
          required
          value={f.data.url}
          error={f.errorFor('url')}
          onChange={(e) => f.change('url', e.target.value)}
          onBlur={() => f.blur('url')}
        />
        <div className="mt-6">
          <SubmitButton processing={f.processing}>Add rule</SubmitButton>
        </div>
      </form>
    </section>
  )
}

export default function SearchSettings({ sites, site, rules, lastBuild, canAct, errors, notice }: Props) {
  const post = usePost()
  return (
    <div>
      <Head title="Search - Shop back office" />
      <h1 className="text-xl font-semibold">Search of {site.name}</h1>
      <SitePicker sites={sites} current={site.id} path="/admin/search" />
      <FocusNotice message={notice} />
      <FocusError message={errors.form} />
      {canAct ? <AddRule key={site.id} siteId={site.id} /> : null}
      <section aria-labelledby="rules" className="mt-6">
        <h2 id="rules" className="text-lg font-semibold">
          Redirect rules
        </h2>
        {rules.length === 0 ? (
          <p className="mt-2">No redirect rules: every search shows its results.</p>
        ) : (
          <table className="mt-2 w-full border-collapse rounded-lg border border-gray-200 bg-white text-left text-sm">
            <thead>
              <tr className="border-b border-gray-200">
                <th scope="col" className="p-2">
                  Search words
                </th>
                <th scope="col" className="p-2">
                  Goes to
                </th>
                <th scope="col" className="p-2">
                  Added
                </th>
                {canAct ? (
                  <th scope="col" className="p-2">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.query} className="border-b border-gray-100">
                  <td className="p-2">{r.query}</td>
                  <td className="p-2 wrap-anywhere">{r.url}</td>
                  <td className="p-2">{formatDateTime(r.createdAt)}</td>
                  {canAct ? (
                    <td className="p-2">
                      <ActionButton
                        danger
                        onClick={() =>
                          post(
                            '/admin/search',
                            { intent: 'remove', site: site.id, query: r.query },
                            `Remove the rule for “${r.query}”? Searches for it show results again.`,
                          )
                        }
                      >
                        Remove<span className="sr-only"> the rule for {r.query}</span>
                      </ActionButton>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="index" className="mt-6">
        <h2 id="index" className="text-lg font-semibold">
          Search index
        </h2>
        <p className="mt-1 text-sm text-gray-700">
          The index follows every catalogue change by itself. Rebuild it if results look out of date.
          {lastBuild ? ` Last full build here: ${lastBuild.records} records in ${lastBuild.ms} ms.` : ''}
        </p>
        {canAct ? (
          <div className="mt-2">
            <ActionButton onClick={() => post('/admin/search', { intent: 'reindex', site: site.id })}>
              Rebuild the search index of {site.name}
            </ActionButton>
          </div>
        ) : null}
      </section>
    </div>
  )
}

SearchSettings.layout = (page: React.ReactNode) => <AdminLayout>{page}</AdminLayout>
