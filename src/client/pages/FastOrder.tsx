/** Fast order placeholder: shows only the text FastOrder. */
import { Head } from '@inertiajs/react'
import { pageTitle } from '../../shared/titles.ts'
import { useSiteName } from '../lib/shared-props.ts'

export default function FastOrder() {
  const siteName = useSiteName()
  return (
    <>
      <Head title={pageTitle({ page: 'fastOrder' }, siteName)} />
      <h1>FastOrder</h1>
    </>
  )
}
