import { Link } from '@inertiajs/react'

/** The prominent way back to the shop from an error or not-found page. */
export function HomeLink() {
  return (
    <Link
      href="/"
      className="mt-6 inline-block rounded-md bg-primary px-5 py-2.5 font-semibold text-on-primary hover:opacity-90"
    >
      Go to the home page
    </Link>
  )
}
