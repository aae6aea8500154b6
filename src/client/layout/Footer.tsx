/** Site footer with the contact phone number and email address, and links to the blog and sitemap. */
import { Link } from '@inertiajs/react'
import type { SiteProps } from '../../shared/page-props.ts'
import { MailIcon, PhoneIcon } from './icons.tsx'

/** tel: URI from a display number: keeps digits and a leading +. */
export function telHref(number: string): string {
  const trimmed = number.trim()
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`
}

export function Footer({ site }: { site: SiteProps }) {
  return (
    <footer className="mt-auto border-t border-gray-200 bg-gray-50 text-gray-800">
      <div className="mx-auto flex max-w-page flex-col gap-6 px-4 py-8 md:flex-row md:items-start md:justify-between">
        <div>
          <h2 className="text-base font-semibold">Contact us</h2>
          <ul className="mt-2 space-y-1.5 text-sm">
            {site.contactNumber && (
              <li className="flex items-center gap-2">
                <PhoneIcon />
                <a href={telHref(site.contactNumber)} className="underline-offset-2 hover:underline">
                  {site.contactNumber}
                </a>
              </li>
            )}
            {site.contactEmail && (
              <li className="flex items-center gap-2">
                <MailIcon />
                <a href={`mailto:${site.contactEmail}`} className="underline-offset-2 hover:underline">
                  {site.contactEmail}
                </a>
              </li>
            )}
          </ul>
        </div>
        <nav aria-label="Footer">
          <ul className="space-y-1.5 text-sm">
            <li>
              <Link href="/blog" className="underline-offset-2 hover:underline">
                Blog
              </Link>
            </li>
            <li>
              <Link href="/sitemap" className="underline-offset-2 hover:underline">
                Sitemap
              </Link>
            </li>
          </ul>
        </nav>
        <p className="text-sm text-gray-700">&copy; {site.name}</p>
      </div>
    </footer>
  )
}
