/** Shown for a host that matches no configured site (the layout is bare: there is no site). */
import { Head } from '@inertiajs/react'
import { pageTitle } from '../../shared/titles.ts'
import { useSiteName } from '../lib/shared-props.ts'

export default function SiteSetup() {
  const siteName = useSiteName()
  return (
    <>
      <Head title={pageTitle({ page: 'siteSetup' }, siteName)} />
      <h1 className="text-2xl font-bold">Site not configured</h1>
    </>
  )
}
