/**
 * The long description (spec §2, §3 long_description_structured): the structured form's above,
 * tabs and below, or the plain long description. Tabs on screens 768 px and wider, accordions on
 * narrower ones (767 px and below). The zone-pricing 'Custom Pricing' tab joins the tabs. The
 * {as_low_as} placeholder is filled in here so it follows the VAT choice.
 */
import { HtmlContent } from '../SafeHtml.tsx'
import { fillPlaceholder, type SafeHtml } from '../../../shared/safe-html.ts'
import type { ReactNode } from 'react'
import { AS_LOW_AS_TOKEN, type ProductDescription, type ZonePriceTable } from '../../../shared/product.ts'
import { MOBILE_QUERY, useMediaQuery } from '../../lib/media.ts'
import { Accordion } from './Accordion.tsx'
import { Tabs, type TabItem } from './Tabs.tsx'
import { usePriceText } from './usePriceText.ts'
import { CUSTOM_PRICING, ZonePricing } from './ZonePricing.tsx'

const TOKEN = new RegExp(AS_LOW_AS_TOKEN.replace(/[{}]/g, '\\$&'), 'gi')

/** Description HTML with the As Low As placeholder filled in ('' when there is no price above 0). */
export function useDescriptionHtml(asLowAs: number): (html: SafeHtml) => SafeHtml {
  const priceText = usePriceText()
  return (html) => fillPlaceholder(html, TOKEN, asLowAs > 0 ? priceText(asLowAs) : null, 'as-low-as')
}

export function Html({ html, className = '' }: { html: SafeHtml; className?: string }) {
  return <HtmlContent html={html} className={`prose-content ${className}`} />
}

export function Description({
  description,
  zonePricing,
  asLowAs,
}: {
  description: ProductDescription
  zonePricing: ZonePriceTable[]
  asLowAs: number
}) {
  const fill = useDescriptionHtml(asLowAs)
  const narrow = useMediaQuery(MOBILE_QUERY)
  const tabs: TabItem[] = description.tabs.map((t) => ({
    id: t.id,
    label: t.label,
    content: <Html html={fill(t.content)} />,
  }))
  if (zonePricing.length > 0) {
    tabs.push({ id: 'custom-pricing', label: CUSTOM_PRICING, content: <ZonePricing tables={zonePricing} /> })
  }
  const structured = description.tabs.length > 0 || !!description.above || !!description.below
  let tabbed: ReactNode = null
  if (tabs.length > 0) {
    tabbed = narrow ? (
      <div data-testid="description-accordions">
        {tabs.map((t) => (
          <Accordion key={t.id} title={t.label} id={`description-${t.id}`} headingLevel={2}>
            {t.content}
          </Accordion>
        ))}
      </div>
    ) : (
      <Tabs tabs={tabs} label="Product information" />
    )
  }
  if (!structured && !description.plain && !tabbed) return null
  return (
    <section aria-label="Product description" className="mt-8" data-testid="product-description">
      {structured ? (
        <>
          <Html html={fill(description.above)} className="mb-4" />
          {tabbed}
          <Html html={fill(description.below)} className="mt-4" />
        </>
      ) : (
        <>
          <Html html={fill(description.plain)} />
          {tabbed ? <div className="mt-6">{tabbed}</div> : null}
        </>
      )}
    </section>
  )
}
