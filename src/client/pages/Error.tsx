/** Error page rendered by the server's error handler with the HTTP status (e.g. 419, 500). */
import { Head } from '@inertiajs/react'
import { HomeLink } from '../components/HomeLink.tsx'
import { ERROR_TITLES, pageTitle } from '../../shared/titles.ts'
import { useSiteName } from '../lib/shared-props.ts'

export interface ErrorProps {
  status: number
  message?: string
}

const DEFAULT_MESSAGES: Record<number, string> = {
  403: 'Sorry, you are not allowed to see this page.',
  404: 'Sorry, we could not find the page you were looking for.',
  419: 'This page has expired. Please refresh and try again.',
  429: 'Too many requests. Please wait a moment and try again.',
  500: 'Sorry, something went wrong on our side. Please try again later.',
  503: 'Sorry, we are doing some maintenance. Please check back soon.',
}

export default function ErrorPage({ status, message }: ErrorProps) {
  const siteName = useSiteName()
  const text = message?.trim() || DEFAULT_MESSAGES[status] || DEFAULT_MESSAGES[500]
  return (
    <>
      <Head title={pageTitle({ page: 'error', status }, siteName)} />
      <div className="mx-auto max-w-xl py-10 text-center">
        <p className="text-sm font-semibold tracking-wide text-gray-600">Error {status}</p>
        <h1 className="mt-1 text-3xl font-bold">{ERROR_TITLES[status] ?? 'Error'}</h1>
        <p className="mt-3 text-gray-700">{text}</p>
        <HomeLink />
      </div>
    </>
  )
}
