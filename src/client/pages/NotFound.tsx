/** 404 page. */
import { Head } from '@inertiajs/react'
import { HomeLink } from '../components/HomeLink.tsx'
import { pageTitle } from '../../shared/titles.ts'
import { useSiteName } from '../lib/shared-props.ts'

export default function NotFound() {
  const siteName = useSiteName()
  return (
    <>
      <Head title={pageTitle({ page: 'notFound' }, siteName)} />
      <div className="mx-auto max-w-xl py-10 text-center">
        <h1 className="text-3xl font-bold">Not Found</h1>
        <p className="mt-3 text-gray-700">Sorry, we could not find the page you were looking for.</p>
        <HomeLink />
      </div>
    </>
  )
}
