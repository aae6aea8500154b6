/** Demo content pages, per site code. Bodies are HTML; they are sanitised when rendered. */
export interface DemoPage {
  slug: string
  title: string
  metaDescription: string
  keywords?: string
  noindex?: boolean
  breadcrumbs?: { name: string; url: string | null }[]
  body: string
}

const shared: DemoPage[] = [
  {
    slug: 'privacy-policy',
    title: 'Privacy Policy',
    metaDescription: 'How we collect, use and protect your personal data.',
    noindex: true,
    body: '<h2>Your data</h2><p>We use your details only to process orders and, if you agree, to send offers.</p>',
  },
]

export const demoPages: Record<string, DemoPage[]> = {
  harbour: [
    {
      slug: 'about-us',
      title: 'About Harbour Safety Supplies',
      metaDescription: 'Family-run supplier of safety signs, workplace furniture and shelters since 1998.',
      keywords: 'safety signs, workplace furniture, shelters',
      breadcrumbs: [
        { name: 'Home', url: '/' },
        { name: 'Company', url: '/about-us' },
        { name: 'About <strong>Harbour</strong>', url: null },
      ],
      body:
        '<h2>Who we are</h2><p>We have supplied workplaces across the UK since 1998.</p>' +
        '<ul><li>Over 2,000 products in stock</li><li>Trade accounts for schools and councils</li></ul>',
    },
    {
      slug: 'delivery-information',
      title: 'Delivery Information',
      metaDescription: 'Delivery charges, times and free delivery on orders over £100.',
      breadcrumbs: [
        { name: 'Home', url: '/' },
        { name: 'Help', url: '/help' },
        { name: 'Customer service', url: '/help/customer-service' },
        { name: 'Delivery', url: null },
      ],
      body:
        '<h2>Delivery charges</h2><table><thead><tr><th>Order value</th><th>Charge</th></tr></thead>' +
        '<tbody><tr><td>Under £100</td><td>£6.95</td></tr><tr><td>£100 and over</td><td>Free</td></tr></tbody></table>',
    },
    ...shared,
  ],
  northgate: [
    {
      slug: 'about-us',
      title: 'About Northgate Workplace',
      metaDescription: 'Mobility and care supplies for clinics and homes across the US.',
      breadcrumbs: [
        { name: 'Home', url: '/' },
        { name: 'About us', url: null },
      ],
      body: '<h2>Our story</h2><p>Northgate supplies mobility and care products to clinics and families.</p>',
    },
    ...shared,
  ],
}
