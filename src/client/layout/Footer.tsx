/**
 * Site footer: contact phone number and e-mail, the customer-service pages (delivery, returns,
 * contact, terms, privacy), about us, blog and sitemap, and the company's name, number,
 * registered address and VAT number from the site's settings.
 */
import { Link } from '@inertiajs/react'
import type { SiteProps } from '../../shared/page-props.ts'
import { MailIcon, PhoneIcon } from './icons.tsx'

/** tel: URI from a display number: keeps digits and a leading +. */
export function telHref(number: string): string {
  const trimmed = number.trim()
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`
}

const FOOTER_LINKS: [string, string][] = [
  ['Delivery', '/delivery-information'],
  ['Returns', '/terms-and-conditions#returns'],
  ['Contact us', '/contact-us'],
  ['Terms and conditions', '/terms-and-conditions'],
  ['Privacy policy', '/privacy-policy'],
  ['About us', '/about-us'],
  ['Blog', '/blog'],
  ['Sitemap', '/sitemap'],
]

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
          <ul className="grid grid-cols-2 gap-x-8 gap-y-1.5 text-sm">
            {FOOTER_LINKS.map(([label, href]) => (
              <li key={href}>
                <Link href={href} className="underline-offset-2 hover:underline">
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="text-sm text-gray-700" data-testid="company-details">
          <p>&copy; {site.company.name || site.name}</p>
          {site.company.number ? <p>Company number {site.company.number}</p> : null}
          {site.company.registeredAddress ? <p>Registered office: {site.company.registeredAddress}</p> : null}
          {site.company.vatNumber ? <p>VAT number: {site.company.vatNumber}</p> : null}
        </div>
      </div>
    </footer>
  )
}
