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
    <footer className="ftr">
      <div className="ftr-in">
        <div>
          <h2 className="ftr-h">Contact us</h2>
          <ul className="ftr-contact">
            {site.contactNumber && (
              <li>
                <PhoneIcon />
                <a href={telHref(site.contactNumber)}>{site.contactNumber}</a>
              </li>
            )}
            {site.contactEmail && (
              <li>
                <MailIcon />
                <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
              </li>
            )}
          </ul>
        </div>
        <nav aria-label="Footer">
          <ul className="ftr-links">
            {FOOTER_LINKS.map(([label, href]) => (
              <li key={href}>
                <Link href={href}>{label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ftr-co" data-testid="company-details">
          <p>&copy; {site.company.name || site.name}</p>
          {site.company.number ? <p>Company number {site.company.number}</p> : null}
          {site.company.registeredAddress ? <p>Registered office: {site.company.registeredAddress}</p> : null}
          {site.company.vatNumber ? <p>VAT number: {site.company.vatNumber}</p> : null}
        </div>
      </div>
    </footer>
  )
}
