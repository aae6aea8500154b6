/** Accordion from content: items toggle; optionally forced open above 767 px; quick taps toggle. */
import type { PresentedBlok } from '../../../shared/content.ts'
import { Accordion } from '../product/Accordion.tsx'
import { list, str } from './fields.ts'
import { Html } from './Html.tsx'

export function AccordionBlock({ blok }: { blok: PresentedBlok }) {
  const title = str(blok.title)
  return (
    <section aria-label={title || undefined}>
      {title ? <h2 className="mb-2 text-xl font-semibold">{title}</h2> : null}
      <div className="border-t border-gray-200">
        {list(blok.items).map((item, i) => (
          <Accordion
            key={item._uid ?? i}
            title={str(item.title)}
            forceOpenOnDesktop={blok.force_open_desktop === true}
            headingLevel={title ? 3 : 2}
          >
            <Html html={item.content} />
          </Accordion>
        ))}
      </div>
    </section>
  )
}
