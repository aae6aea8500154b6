import type { NewSiteRow } from '../../modules/sites/sites.tables.ts'

/**
 * The two demo brands: a GBP site on localhost and a USD site on 127.0.0.1. Theme, contact
 * details, cart name and the header message come from content stories (content/<code>/settings/).
 */
export const demoSites: NewSiteRow[] = [
  {
    host: 'localhost',
    code: 'harbour',
    name: 'Harbour Safety Supplies',
    currency: 'GBP',
    logo: '/brands/harbour.svg',
    settings: {
      locale: 'en-GB',
      tax: { name: 'VAT', rate: 20, pricesIncludeTax: false },
      calendar: 'england-and-wales',
      company: {
        name: 'Harbour Safety Supplies Ltd',
        number: '09876543',
        registeredAddress: 'Unit 4, Quayside Trading Estate, Portsmouth PO1 0AA',
        vatNumber: 'GB 123 4567 89',
      },
      minimumOrderValue: 2000,
      adPixel: false,
      guarantees: ['Same-day despatch before 2pm', 'Trade accounts welcome', '30-day returns'],
      navigation: [
        { label: 'Safety Signs', url: '/safety-signs' },
        { label: 'Furniture', url: '/furniture' },
        { label: 'Shelters', url: '/shelters' },
        { label: 'Print & Sign', url: '/print-and-sign' },
      ],
      stickyHeaderOffset: 120,
      showSidebar: false,
    },
  },
  {
    host: '127.0.0.1',
    code: 'northgate',
    name: 'Northgate Workplace',
    currency: 'USD',
    logo: '/brands/northgate.svg',
    settings: {
      locale: 'en-US',
      // A US export site: no UK VAT, no sales tax charged; US federal holidays.
      tax: { name: 'Sales tax', rate: 0, pricesIncludeTax: false },
      calendar: 'us-federal',
      company: {
        name: 'Northgate Workplace Inc.',
        number: '',
        registeredAddress: '400 Commerce Drive, Suite 200, Columbus, OH 43215',
        vatNumber: '',
      },
      minimumOrderValue: 0,
      adPixel: true,
      guarantees: ['Ships in 1–2 business days', 'Volume pricing'],
      navigation: [
        { label: 'Mobility', url: '/mobility' },
        { label: 'Incontinence', url: '/incontinence' },
      ],
      stickyHeaderOffset: 80,
      showSidebar: true,
    },
  },
]
