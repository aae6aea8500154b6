/**
 * The words the demo catalogue is built from: category trees per site, product name stems and
 * variants, SKU axes, prices and description sentences. Plain data; generate.ts combines it.
 */
import type { PageLayout } from '../../../modules/catalog/catalog.tables.ts'

/** How product images of a leaf are drawn (see media.ts). */
export type ImageStyle =
  'exit' | 'fire' | 'prohibition' | 'warning' | 'mandatory' | 'safe' | 'construction' | 'custom' | 'photo'

/** How product names are put together from a stem and a variant. */
export type NamePattern = 'sign' | 'model' | 'dash'

export interface BuilderPlan {
  /** Selectors after 'Size' (which lists the first product's sizes): name and [item, cost] */
  selectors: { name: string; items: [string, number][] }[]
  options: { name: string; items: [string, number][] }[]
}

export interface FamilySpec {
  /** Short code used in product codes: 'FE' */
  code: string
  style: ImageStyle
  pattern: NamePattern
  stems: string[]
  variants: string[]
  /** Grid rows (sizes, widths, models) and the range picked per product */
  rows: { values: string[]; pick: [number, number] }
  /** Options inside a row (materials, colours, packs); absent = one SKU per row */
  options?: { values: string[]; pick: [number, number] }
  /** Base single-unit price range of the first row, minor units ex VAT */
  price: [number, number]
  /** Price growth from one row to the next (bigger sizes cost more) */
  rowStep: number
  /** Lower quantities of the brackets; the first is 1 */
  breaks: number[]
  /** Descriptions of grids 1..3 when a product uses more than one */
  grids?: { description: string; suffix: string; factor: number }[]
  /** Page layouts with weights */
  layouts: [PageLayout, number][]
  unit: string
  blurbs: string[]
  specs: [string, string[]][]
  /** Colour swatches for options whose value is a colour name */
  swatches?: boolean
  /** Share of products carrying 'Custom Pricing' zone prices */
  zonePricing?: number
  /** Kinds of data-sheet files offered */
  documents: ('pdf' | 'docx' | 'xlsx')[]
}

export interface CategorySpec {
  slug: string
  name: string
  description: string
  display?: 'grid' | 'paginated'
  trade?: boolean
  /** Products in this (leaf) category */
  count?: number
  family?: FamilySpec
  builder?: BuilderPlan
  children?: CategorySpec[]
}

export interface SiteSpec {
  code: string
  /** Prefix of SKU codes on this site */
  skuPrefix: string
  vatRelief: boolean
  brands: string[]
  tree: CategorySpec[]
}

// --- Shared axes -------------------------------------------------------------------------------

export const COLOURS: Record<string, { Hex: string; Hex2?: string; TextColour: string }> = {
  Black: { Hex: '#1b1b1b', TextColour: '#ffffff' },
  Blue: { Hex: '#1d4f91', TextColour: '#ffffff' },
  Grey: { Hex: '#8a8d91', TextColour: '#ffffff' },
  Red: { Hex: '#c8102e', TextColour: '#ffffff' },
  Green: { Hex: '#2e7d32', TextColour: '#ffffff' },
  White: { Hex: '#f7f7f7', TextColour: '#1b1b1b' },
  Oak: { Hex: '#c8a165', Hex2: '#a47c48', TextColour: '#1b1b1b' },
  Beech: { Hex: '#e3c393', Hex2: '#c9a473', TextColour: '#1b1b1b' },
  Walnut: { Hex: '#6b4a2f', Hex2: '#4d331f', TextColour: '#ffffff' },
  Silver: { Hex: '#c0c4c8', Hex2: '#9ea3a8', TextColour: '#1b1b1b' },
  Bronze: { Hex: '#8c6239', TextColour: '#ffffff' },
  Burgundy: { Hex: '#7a1f32', TextColour: '#ffffff' },
  Yellow: { Hex: '#ffd100', TextColour: '#1b1b1b' },
}

const SIGN_SIZES = [
  '150x150mm',
  '200x100mm',
  '300x100mm',
  '300x200mm',
  '400x150mm',
  '450x150mm',
  '400x300mm',
  '600x200mm',
  '600x400mm',
]
const SIGN_MATERIALS = ['Rigid PVC', 'Self-Adhesive Vinyl', 'Photoluminescent', 'Aluminium Composite']
const SIGN_GRIDS = [
  { description: 'Single signs', suffix: '', factor: 1 },
  { description: 'Packs of 10', suffix: ' – Pack of 10', factor: 8.4 },
  { description: 'Packs of 25', suffix: ' – Pack of 25', factor: 19.5 },
]
const SIGN_BLURBS = [
  'Made to BS EN ISO 7010 and BS 5499 so the symbols are recognised everywhere.',
  'Printed with fade-resistant UV inks for indoor and sheltered outdoor use.',
  'Rigid PVC is 1mm thick and easy to fix with sticky pads or screws.',
  'Photoluminescent versions glow for hours after a power cut.',
  'Clear, bold wording that can be read from well over ten metres.',
  'Self-adhesive vinyl suits smooth surfaces such as glass, doors and painted walls.',
  'Every sign is printed in our own workshop and despatched the same day.',
]
const SIGN_SPECS: [string, string[]][] = [
  ['Material', ['Rigid PVC', 'Self-Adhesive Vinyl', 'Photoluminescent PVC', 'Aluminium Composite']],
  ['Thickness', ['1mm', '1.2mm', '2mm', '3mm']],
  ['Fixing', ['Sticky pads', 'Screws', 'Cable ties', 'Self-adhesive back']],
  ['Standard', ['BS EN ISO 7010', 'BS 5499', 'Health and Safety Regulations 1996']],
  ['Finish', ['Matt', 'Gloss', 'Anti-graffiti laminate']],
  ['Shape', ['Landscape', 'Portrait', 'Square']],
  ['Viewing distance', ['10m', '15m', '20m', '25m']],
  ['Indoor/outdoor', ['Indoor', 'Indoor and outdoor']],
  ['Made in', ['United Kingdom']],
  ['Corners', ['Square', 'Rounded']],
]

function signFamily(
  code: string,
  style: ImageStyle,
  stems: string[],
  variants: string[],
  layoutShare = 0.2,
): FamilySpec {
  return {
    code,
    style,
    pattern: 'sign',
    stems,
    variants,
    rows: { values: SIGN_SIZES, pick: [2, 4] },
    options: { values: SIGN_MATERIALS, pick: [1, 3] },
    price: [229, 499],
    rowStep: 1.32,
    breaks: [1, 10, 25, 50, 100],
    grids: SIGN_GRIDS,
    layouts: [
      ['Default', 1 - layoutShare],
      ['DefaultPGUnderLD', layoutShare],
    ],
    unit: 'each',
    blurbs: SIGN_BLURBS,
    specs: SIGN_SPECS,
    zonePricing: 0.04,
    documents: ['pdf'],
  }
}

const FURNITURE_BLURBS = [
  'Built for daily commercial use and tested to BS EN 1335.',
  'Delivered free to ground floor rooms, fully assembled on request.',
  'Backed by a five-year guarantee on frames and mechanisms.',
  'Easy-clean finishes that stand up to busy offices and schools.',
  'Matching ranges let you furnish a whole floor in one order.',
  'Sturdy steel frames with adjustable feet for uneven floors.',
]
const FURNITURE_SPECS: [string, string[]][] = [
  ['Width', ['600mm', '800mm', '1200mm', '1400mm', '1600mm']],
  ['Depth', ['450mm', '600mm', '800mm']],
  ['Height', ['720mm', '1000mm', '1800mm']],
  ['Weight capacity', ['110kg', '130kg', '150kg']],
  ['Frame', ['Powder-coated steel', 'Chrome', 'Aluminium']],
  ['Warranty', ['2 years', '5 years', '10 years']],
  ['Assembly', ['Self assembly', 'Delivered assembled']],
  ['Fire rating', ['BS 5852 Crib 5', 'BS 7176 Medium Hazard']],
  ['Made in', ['United Kingdom', 'European Union']],
  ['Certification', ['FIRA Gold', 'BS EN 1335']],
]
const SHELTER_BLURBS = [
  'Galvanised steel frames stand up to decades of British weather.',
  'Supplied with a full installation service or as a self-build kit.',
  'Clear polycarbonate roofs let light through while keeping the rain off.',
  'Bolt-down or root-fix foundations to suit your site.',
  'Add side panels, lighting and bins to complete the shelter.',
]
const SHELTER_SPECS: [string, string[]][] = [
  ['Frame', ['Galvanised steel', 'Powder-coated steel', 'Timber']],
  ['Roof', ['Polycarbonate', 'Steel sheet', 'PET']],
  ['Height', ['2.1m', '2.3m', '2.5m']],
  ['Depth', ['1.5m', '2m', '2.5m']],
  ['Fixing', ['Bolt down', 'Root fix']],
  ['Installation', ['Included', 'Optional', 'Self build']],
  ['Snow load', ['0.6kN/m²', '0.75kN/m²']],
  ['Warranty', ['10 years', '15 years']],
]
const PRINT_BLURBS = [
  'Printed on our own presses with fast proofs before production.',
  'Vivid full-colour print that resists fading for years.',
  'Upload your artwork or let our designers lay it out for free.',
  'Finished by hand and checked before despatch.',
  'Trade prices on larger runs: ask for Custom Pricing.',
]
const PRINT_SPECS: [string, string[]][] = [
  ['Print', ['Full colour', 'Single colour', 'Screen printed']],
  ['Material', ['PVC 440gsm', 'Mesh 380gsm', 'Vinyl', 'Foamex 3mm', 'Correx 4mm']],
  ['Finish', ['Matt', 'Gloss', 'Laminated']],
  ['Artwork', ['Free artwork check', 'Design service available']],
  ['Turnaround', ['2 working days', '3 working days', '5 working days']],
  ['Made in', ['United Kingdom']],
]
const MOBILITY_BLURBS = [
  'Lightweight and easy to adjust without tools.',
  'Rated for everyday use at home and in clinics.',
  'Non-slip rubber feet and comfortable ergonomic grips.',
  'Folds flat for travel and storage.',
  'Meets FDA Class I medical device requirements.',
  'Backed by our 90-day satisfaction guarantee.',
]
const MOBILITY_SPECS: [string, string[]][] = [
  ['Weight capacity', ['250 lb', '300 lb', '350 lb', '400 lb']],
  ['Product weight', ['1.2 lb', '6 lb', '14 lb', '32 lb']],
  ['Height range', ['29"-38"', '31"-39"', '33"-37"']],
  ['Frame', ['Aluminum', 'Steel', 'Carbon fiber']],
  ['Folding', ['Yes', 'No']],
  ['Warranty', ['1 year', '3 years', 'Lifetime frame']],
  ['Latex free', ['Yes']],
]
const INCONTINENCE_BLURBS = [
  'Super-absorbent core locks away moisture and neutralises odour.',
  'Breathable, cloth-like outer layer that is gentle on the skin.',
  'Wetness indicator shows when a change is needed.',
  'Discreet under everyday clothing.',
  'Case prices for care homes and clinics.',
]
const INCONTINENCE_SPECS: [string, string[]][] = [
  ['Absorbency', ['Light', 'Moderate', 'Heavy', 'Maximum', 'Overnight']],
  ['Waist size', ['20"-31"', '32"-44"', '45"-58"', '59"-64"']],
  ['Count per pack', ['12', '14', '16', '18', '20']],
  ['Wetness indicator', ['Yes', 'No']],
  ['Latex free', ['Yes']],
  ['Gender', ['Unisex', 'Women', 'Men']],
]

// --- Families ----------------------------------------------------------------------------------

const ARROWS = [
  'Running Man Arrow Left',
  'Running Man Arrow Right',
  'Running Man Arrow Up',
  'Running Man Arrow Down',
  'Running Man Text Only',
  'Arrow Left',
  'Arrow Right',
]
const SIGN_FORMATS = ['Symbol and Text', 'Text Only', 'Symbol Only', 'Landscape', 'Portrait']

const F = {
  exit: signFamily(
    'FE',
    'exit',
    [
      'Fire Exit',
      'Emergency Exit',
      'Fire Escape',
      'Final Exit',
      'Emergency Exit Keep Clear',
      'Fire Exit Keep Clear',
    ],
    ARROWS,
    0.25,
  ),
  equipment: signFamily(
    'FQ',
    'fire',
    [
      'Fire Extinguisher',
      'Fire Alarm Call Point',
      'Fire Blanket',
      'Fire Hose Reel',
      'Fire Point',
      'Dry Riser Inlet',
      'Fire Action Notice',
      'Sprinkler Stop Valve',
    ],
    SIGN_FORMATS,
  ),
  door: signFamily(
    'FD',
    'mandatory',
    [
      'Fire Door Keep Shut',
      'Fire Door Keep Locked',
      'Automatic Fire Door Keep Clear',
      'Fire Escape Keep Clear',
      'Fire Door Keep Closed',
    ],
    ['Landscape', 'Portrait', 'Round', 'Double Sided', 'Text Only'],
  ),
  prohibition: signFamily(
    'PR',
    'prohibition',
    [
      'No Smoking',
      'No Entry',
      'No Vaping',
      'No Parking',
      'No Unauthorised Persons',
      'No Mobile Phones',
      'Do Not Drink',
      'No Naked Flames',
      'No Access for Pedestrians',
    ],
    SIGN_FORMATS,
  ),
  electrical: signFamily(
    'EW',
    'warning',
    [
      'Danger High Voltage',
      'Electrical Hazard',
      'Danger 415 Volts',
      'Isolate Before Removing Cover',
      'Overhead Power Lines',
      'Buried Cables',
    ],
    SIGN_FORMATS,
  ),
  chemical: signFamily(
    'CW',
    'warning',
    [
      'Corrosive Substances',
      'Flammable Liquid',
      'Toxic Material',
      'Compressed Gas',
      'Oxidising Agent',
      'Harmful Vapours',
    ],
    SIGN_FORMATS,
  ),
  general: signFamily(
    'GW',
    'warning',
    [
      'Caution Wet Floor',
      'Slippery Surface',
      'Forklift Trucks Operating',
      'Mind Your Head',
      'Trip Hazard',
      'Hot Surface',
      'Deep Water',
    ],
    SIGN_FORMATS,
  ),
  mandatory: signFamily(
    'MA',
    'mandatory',
    [
      'Wear Eye Protection',
      'Wear Safety Helmet',
      'Hi-Vis Must Be Worn',
      'Wash Your Hands',
      'Keep Locked',
      'Wear Ear Protection',
      'Safety Boots Must Be Worn',
      'Use Handrail',
    ],
    SIGN_FORMATS,
  ),
  firstAid: signFamily(
    'FA',
    'safe',
    [
      'First Aid',
      'Eye Wash Station',
      'Defibrillator AED',
      'Emergency Shower',
      'First Aider on Duty',
      'Fire Assembly Point',
    ],
    SIGN_FORMATS,
  ),
  construction: {
    ...signFamily(
      'CS',
      'construction',
      [
        'Construction Site Keep Out',
        'Hard Hat Area',
        'Site Entrance',
        'Deliveries Only',
        'Visitors Report to Site Office',
        'Site Safety Board',
      ],
      ['Correx 4mm', 'Foamex 3mm', 'Aluminium Composite'],
    ),
    rows: {
      values: ['400x300mm', '600x400mm', '600x450mm', '800x600mm', '1220x915mm'],
      pick: [2, 4] as [number, number],
    },
    options: undefined,
    price: [899, 1899] as [number, number],
    zonePricing: 0.4,
  },
  customSafety: {
    ...signFamily(
      'CU',
      'custom',
      [
        'Custom Safety Sign',
        'Custom Fire Sign',
        'Custom Warning Sign',
        'Custom Mandatory Sign',
        'Custom Prohibition Sign',
      ],
      ['Your Own Text', 'Text and Symbol', 'Two Symbols', 'With Logo'],
    ),
    zonePricing: 0.5,
  },
  chairs: {
    code: 'OC',
    style: 'photo',
    pattern: 'model',
    stems: [
      'Mesh Operator Chair',
      'Fabric Task Chair',
      'Leather Executive Chair',
      '24 Hour Chair',
      'Draughtsman Chair',
      'Meeting Chair',
    ],
    variants: ['Ergo', 'Apex', 'Vantage', 'Orbit', 'Summit', 'Linear', 'Contour', 'Pioneer'],
    rows: { values: ['Standard', 'With Arms', 'With Headrest'], pick: [1, 2] },
    options: { values: ['Black', 'Blue', 'Grey', 'Red', 'Green'], pick: [1, 4] },
    price: [8999, 29999],
    rowStep: 1.12,
    breaks: [1, 5, 10, 20, 50],
    layouts: [
      ['MediaLeft', 0.8],
      ['Default', 0.2],
    ],
    unit: 'each',
    blurbs: FURNITURE_BLURBS,
    specs: FURNITURE_SPECS,
    swatches: true,
    documents: ['pdf', 'docx'],
  } satisfies FamilySpec,
} satisfies Record<string, FamilySpec>

function furniture(
  code: string,
  stems: string[],
  variants: string[],
  rows: string[],
  options: string[],
  price: [number, number],
): FamilySpec {
  return {
    ...F.chairs,
    code,
    stems,
    variants,
    rows: { values: rows, pick: [1, 3] },
    options: { values: options, pick: [1, 3] },
    price,
  }
}

function shelter(code: string, stems: string[]): FamilySpec {
  return {
    code,
    style: 'photo',
    pattern: 'dash',
    stems,
    variants: ['Galvanised', 'Powder Coated', 'Timber Frame', 'Heavy Duty', 'Compact'],
    rows: { values: ['2m', '3m', '4m', '5m', '6m'], pick: [1, 3] },
    options: { values: ['Polycarbonate Roof', 'Steel Roof'], pick: [1, 2] },
    price: [89900, 249900],
    rowStep: 1.28,
    breaks: [1, 2, 5, 10],
    layouts: [['SheltersLayout', 1]],
    unit: 'each',
    blurbs: SHELTER_BLURBS,
    specs: SHELTER_SPECS,
    documents: ['pdf', 'docx'],
  }
}

function print(
  code: string,
  stems: string[],
  variants: string[],
  rows: string[],
  options: string[] | null,
  price: [number, number],
  zonePricing: number,
): FamilySpec {
  return {
    code,
    style: 'custom',
    pattern: 'dash',
    stems,
    variants,
    rows: { values: rows, pick: [2, 4] },
    ...(options ? { options: { values: options, pick: [1, 3] as [number, number] } } : {}),
    price,
    rowStep: 1.45,
    breaks: [1, 5, 10, 25, 50],
    grids: [
      { description: 'Standard', suffix: '', factor: 1 },
      { description: 'Multi-buy packs of 5', suffix: ' – Pack of 5', factor: 4.3 },
      { description: 'Multi-buy packs of 20', suffix: ' – Pack of 20', factor: 15 },
    ],
    layouts: [
      ['DefaultPGUnderLD', 0.7],
      ['Default', 0.3],
    ],
    unit: 'each',
    blurbs: PRINT_BLURBS,
    specs: PRINT_SPECS,
    zonePricing,
    documents: ['pdf', 'xlsx'],
  }
}

function mobility(
  code: string,
  stems: string[],
  variants: string[],
  rows: string[],
  options: string[] | null,
  price: [number, number],
): FamilySpec {
  return {
    code,
    style: 'photo',
    pattern: 'model',
    stems,
    variants,
    rows: { values: rows, pick: [1, 3] },
    ...(options ? { options: { values: options, pick: [1, 3] as [number, number] } } : {}),
    price,
    rowStep: 1.1,
    breaks: [1, 3, 6, 12],
    layouts: [
      ['MediaLeft', 0.6],
      ['Default', 0.4],
    ],
    unit: 'each',
    blurbs: MOBILITY_BLURBS,
    specs: MOBILITY_SPECS,
    swatches: true,
    documents: ['pdf', 'docx'],
  }
}

function incontinence(
  code: string,
  stems: string[],
  variants: string[],
  rows: string[],
  price: [number, number],
): FamilySpec {
  return {
    code,
    style: 'photo',
    pattern: 'model',
    stems,
    variants,
    rows: { values: rows, pick: [2, 4] },
    options: { values: ['Pack', 'Case of 4 Packs'], pick: [1, 2] },
    price,
    rowStep: 1.04,
    breaks: [1, 4, 10, 20],
    grids: [
      { description: 'Packs', suffix: '', factor: 1 },
      { description: 'Bulk cases of 6', suffix: ' – Bulk Case of 6', factor: 5.4 },
    ],
    layouts: [
      ['Default', 0.7],
      ['DefaultPGUnderLD', 0.3],
    ],
    unit: 'pack',
    blurbs: INCONTINENCE_BLURBS,
    specs: INCONTINENCE_SPECS,
    zonePricing: 0.05,
    documents: ['pdf', 'xlsx'],
  }
}

// --- Builders ----------------------------------------------------------------------------------

const SIGN_BUILDER: BuilderPlan = {
  selectors: [
    {
      name: 'Material',
      items: [
        ['Rigid PVC 1mm', 0],
        ['Self-Adhesive Vinyl', 0],
        ['Photoluminescent PVC', 420],
        ['Aluminium Composite 3mm', 650],
      ],
    },
  ],
  options: [
    {
      name: 'Finishing',
      items: [
        ['Drilled holes (4 corners)', 150],
        ['Anti-graffiti lamination', 220],
        ['Rounded corners', 90],
      ],
    },
    {
      name: 'Fixings',
      items: [
        ['Sticky pads', 120],
        ['Screws and caps', 180],
        ['Cable ties', 80],
      ],
    },
  ],
}

const BANNER_BUILDER: BuilderPlan = {
  selectors: [
    {
      name: 'Material',
      items: [
        ['PVC 440gsm', 0],
        ['Mesh 380gsm (windy sites)', 500],
        ['Fabric 220gsm', 900],
      ],
    },
  ],
  options: [
    {
      name: 'Finishing',
      items: [
        ['Eyelets every 500mm', 0],
        ['Hemmed edges', 400],
        ['Pole pockets', 600],
      ],
    },
    { name: 'Fixings', items: [['Bungee ties (pack of 10)', 350]] },
  ],
}

const NAMEPLATE_BUILDER: BuilderPlan = {
  selectors: [
    {
      name: 'Finish',
      items: [
        ['Brushed silver', 0],
        ['Brushed gold', 250],
        ['White with black text', 0],
        ['Black with white text', 0],
      ],
    },
  ],
  options: [
    {
      name: 'Fixing',
      items: [
        ['Self-adhesive backing', 90],
        ['Screw holes', 60],
        ['Aluminium frame', 450],
      ],
    },
  ],
}

// --- Sites -------------------------------------------------------------------------------------

export const SITE_SPECS: SiteSpec[] = [
  {
    code: 'harbour',
    skuPrefix: 'H',
    vatRelief: false,
    brands: ['Harbour', 'Stronghold', 'Beacon', 'SafeSite'],
    tree: [
      {
        slug: 'safety-signs',
        name: 'Safety Signs',
        description: 'Fire, warning, prohibition, mandatory and first aid signs to ISO 7010.',
        display: 'grid',
        children: [
          {
            slug: 'fire-safety-signs',
            name: 'Fire Safety Signs',
            description: 'Fire exit, fire equipment and fire door signs.',
            display: 'grid',
            children: [
              {
                slug: 'fire-exit-signs',
                name: 'Fire Exit Signs',
                description: 'Running man fire exit and emergency exit signs.',
                count: 30,
                family: F.exit,
              },
              {
                slug: 'fire-equipment-signs',
                name: 'Fire Equipment Signs',
                description: 'Signs for extinguishers, call points, hose reels and fire points.',
                count: 30,
                family: F.equipment,
              },
              {
                slug: 'fire-door-signs',
                name: 'Fire Door Signs',
                description: 'Fire door keep shut and keep locked signs.',
                count: 20,
                family: F.door,
              },
            ],
          },
          {
            slug: 'prohibition-signs',
            name: 'Prohibition Signs',
            description: 'No smoking, no entry and other prohibition signs.',
            count: 30,
            family: F.prohibition,
          },
          {
            slug: 'warning-signs',
            name: 'Warning Signs',
            description: 'Hazard warning signs for electrical, chemical and workplace dangers.',
            display: 'grid',
            children: [
              {
                slug: 'electrical-warning-signs',
                name: 'Electrical Warning Signs',
                description: 'High voltage and electrical hazard signs.',
                count: 25,
                family: F.electrical,
              },
              {
                slug: 'chemical-warning-signs',
                name: 'Chemical Warning Signs',
                description: 'COSHH and hazardous substance signs.',
                count: 25,
                family: F.chemical,
              },
              {
                slug: 'general-warning-signs',
                name: 'General Warning Signs',
                description: 'Wet floor, forklift and trip hazard signs.',
                count: 20,
                family: F.general,
              },
            ],
          },
          {
            slug: 'mandatory-signs',
            name: 'Mandatory Signs',
            description: 'PPE and mandatory instruction signs.',
            count: 30,
            family: F.mandatory,
          },
          {
            slug: 'first-aid-signs',
            name: 'First Aid Signs',
            description: 'First aid, eye wash and defibrillator signs.',
            count: 20,
            family: F.firstAid,
          },
          {
            slug: 'construction-signs',
            name: 'Construction Site Signs',
            description: 'Site safety boards and construction signs for contractors.',
            count: 15,
            family: F.construction,
            trade: true,
          },
          {
            slug: 'custom-safety-signs',
            name: 'Custom Safety Signs',
            description: 'Design your own safety sign: choose the size, material and finishing.',
            count: 8,
            family: F.customSafety,
            builder: SIGN_BUILDER,
            display: 'grid',
          },
        ],
      },
      {
        slug: 'furniture',
        name: 'Furniture',
        description: 'Office, canteen and classroom furniture for busy workplaces.',
        display: 'grid',
        children: [
          {
            slug: 'office-chairs',
            name: 'Office Chairs',
            description: 'Ergonomic operator, task and executive chairs.',
            count: 18,
            family: F.chairs,
          },
          {
            slug: 'desks',
            name: 'Desks',
            description: 'Straight and height adjustable desks.',
            display: 'grid',
            children: [
              {
                slug: 'height-adjustable-desks',
                name: 'Height Adjustable Desks',
                description: 'Electric sit-stand desks.',
                count: 10,
                family: furniture(
                  'HD',
                  ['Electric Sit-Stand Desk', 'Dual Motor Standing Desk', 'Crank Height Desk'],
                  ['Ascend', 'Lift', 'Rise', 'Elevate', 'Balance'],
                  ['1200mm', '1400mm', '1600mm', '1800mm'],
                  ['White', 'Oak', 'Beech', 'Walnut'],
                  [29999, 54999],
                ),
              },
              {
                slug: 'straight-desks',
                name: 'Straight Desks',
                description: 'Rectangular desks in four widths.',
                count: 10,
                family: furniture(
                  'SD',
                  ['Straight Desk', 'Cantilever Desk', 'Bench Desk'],
                  ['Essentials', 'Kestrel', 'Lakeside', 'Metro', 'Quantum'],
                  ['1200mm', '1400mm', '1600mm', '1800mm'],
                  ['White', 'Oak', 'Beech', 'Walnut'],
                  [12999, 24999],
                ),
              },
            ],
          },
          {
            slug: 'storage',
            name: 'Storage',
            description: 'Lockers and filing cabinets.',
            display: 'grid',
            children: [
              {
                slug: 'lockers',
                name: 'Lockers',
                description: 'Steel lockers for staff rooms, schools and gyms.',
                count: 14,
                family: furniture(
                  'LK',
                  ['Steel Locker', 'Wet Area Locker', 'Laptop Locker', 'Coin Return Locker'],
                  ['Guardian', 'Sentinel', 'Keeper', 'Fortress'],
                  ['1 Door', '2 Door', '4 Door', '6 Door'],
                  ['Grey', 'Blue', 'Red', 'Green'],
                  [8999, 19999],
                ),
              },
              {
                slug: 'filing-cabinets',
                name: 'Filing Cabinets',
                description: 'Two, three and four drawer filing cabinets.',
                count: 10,
                family: furniture(
                  'FC',
                  ['Filing Cabinet', 'Fire Resistant Filing Cabinet', 'Side Filer'],
                  ['Archive', 'Ledger', 'Index', 'Docket'],
                  ['2 Drawer', '3 Drawer', '4 Drawer'],
                  ['Grey', 'Black', 'White'],
                  [14999, 34999],
                ),
              },
            ],
          },
          {
            slug: 'canteen-furniture',
            name: 'Canteen Furniture',
            description: 'Tables, chairs and benches for canteens and break rooms.',
            count: 10,
            family: furniture(
              'CF',
              ['Canteen Table', 'Stacking Chair', 'Bistro Table', 'Picnic Bench'],
              ['Harbour', 'Quay', 'Mariner', 'Pier'],
              ['Single', 'Pack of 4'],
              ['Black', 'Blue', 'Red', 'Grey'],
              [4999, 19999],
            ),
          },
          {
            slug: 'classroom-furniture',
            name: 'Classroom Furniture',
            description: 'Trade range of classroom tables and chairs for schools and academies.',
            count: 10,
            family: furniture(
              'CL',
              ['Classroom Chair', 'Classroom Table', 'Teacher Desk'],
              ['Scholar', 'Campus', 'Academy', 'Tutor'],
              ['Size 3', 'Size 4', 'Size 5', 'Size 6'],
              ['Blue', 'Red', 'Green', 'Grey'],
              [2499, 9999],
            ),
            trade: true,
          },
        ],
      },
      {
        slug: 'shelters',
        name: 'Shelters',
        description: 'Smoking, cycle and waiting shelters, canopies and walkway covers.',
        display: 'grid',
        children: [
          {
            slug: 'smoking-shelters',
            name: 'Smoking Shelters',
            description: 'Open-fronted smoking shelters for staff areas.',
            count: 12,
            family: shelter('SS', [
              'Open Front Smoking Shelter',
              'Smoking Shelter with Side Panels',
              'Wall Mounted Smoking Shelter',
            ]),
          },
          {
            slug: 'cycle-shelters',
            name: 'Cycle Shelters',
            description: 'Secure cycle shelters with Sheffield stands.',
            count: 12,
            family: shelter('CY', ['Cycle Shelter', 'Two Tier Cycle Shelter', 'Lockable Cycle Compound']),
          },
          {
            slug: 'waiting-shelters',
            name: 'Waiting Shelters',
            description: 'Bus stop style waiting shelters with seating.',
            count: 8,
            family: shelter('WS', ['Waiting Shelter', 'Parent Waiting Shelter', 'Bus Stop Shelter']),
          },
          {
            slug: 'canopies',
            name: 'Canopies',
            description: 'Trade canopies for schools and commercial sites.',
            count: 6,
            family: shelter('CN', ['Free Standing Canopy', 'Wall Mounted Canopy']),
            trade: true,
          },
          {
            slug: 'walkway-covers',
            name: 'Walkway Covers',
            description: 'Covered walkways linking buildings.',
            count: 6,
            family: shelter('WC', ['Walkway Cover', 'Curved Walkway Cover']),
          },
        ],
      },
      {
        slug: 'print-and-sign',
        name: 'Print & Sign',
        description: 'Custom printed signs, banners, stickers and posters.',
        display: 'grid',
        children: [
          {
            slug: 'custom-signs',
            name: 'Custom Signs',
            description: 'Your own sign in any size: pick the material and finishing.',
            count: 10,
            family: print(
              'PS',
              ['Custom Sign', 'Custom Printed Board', 'Custom Door Sign', 'Custom Car Park Sign'],
              ['Your Own Text', 'With Logo', 'Full Colour', 'Reflective'],
              ['200x150mm', '300x200mm', '400x300mm', '600x400mm', '800x600mm'],
              ['Foamex 3mm', 'Aluminium Composite 3mm', 'Correx 4mm'],
              [699, 1499],
              0.6,
            ),
            builder: SIGN_BUILDER,
          },
          {
            slug: 'banners',
            name: 'Banners',
            description: 'Printed PVC and mesh banners with eyelets.',
            count: 12,
            family: print(
              'BN',
              ['PVC Banner', 'Mesh Banner', 'Roller Banner', 'Fence Banner'],
              ['Full Colour', 'Single Colour', 'Double Sided', 'Event'],
              ['1000x500mm', '2000x1000mm', '3000x1000mm', '4000x1000mm', '6000x1000mm'],
              ['Eyelets', 'Hemmed and Eyeleted'],
              [1999, 3999],
              0.5,
            ),
            builder: BANNER_BUILDER,
          },
          {
            slug: 'stickers-and-labels',
            name: 'Stickers & Labels',
            description: 'Printed stickers, asset labels and floor graphics.',
            count: 20,
            family: print(
              'ST',
              ['Printed Sticker', 'Asset Label', 'Floor Graphic', 'Window Sticker', 'QR Code Label'],
              ['Circle', 'Square', 'Rectangle', 'Die Cut', 'Clear'],
              ['50mm', '75mm', '100mm', '150mm', '300mm'],
              ['Roll of 100', 'Roll of 250', 'Roll of 500'],
              [99, 399],
              0.2,
            ),
          },
          {
            slug: 'nameplates',
            name: 'Nameplates',
            description: 'Engraved door and desk nameplates.',
            count: 8,
            family: print(
              'NP',
              ['Engraved Door Nameplate', 'Desk Nameplate', 'Wall Nameplate'],
              ['Classic', 'Modern', 'Executive'],
              ['150x50mm', '200x50mm', '250x75mm', '300x100mm'],
              null,
              [899, 1899],
              0.3,
            ),
            builder: NAMEPLATE_BUILDER,
            display: 'grid',
          },
          {
            slug: 'posters',
            name: 'Posters',
            description: 'Health and safety law posters and printed posters.',
            count: 12,
            family: print(
              'PO',
              [
                'Health and Safety Law Poster',
                'Manual Handling Poster',
                'Hand Washing Poster',
                'Fire Action Poster',
              ],
              ['Laminated', 'Framed', 'Paper', 'Rigid PVC'],
              ['A4', 'A3', 'A2', 'A1'],
              null,
              [349, 899],
              0.1,
            ),
          },
        ],
      },
    ],
  },
  {
    code: 'northgate',
    skuPrefix: 'N',
    vatRelief: true,
    brands: ['Northgate Care', 'EasyStep', 'DryNight', 'StrideWell'],
    tree: [
      {
        slug: 'mobility',
        name: 'Mobility',
        description: 'Walking aids, wheelchairs, bathroom safety and ramps.',
        display: 'grid',
        children: [
          {
            slug: 'walking-aids',
            name: 'Walking Aids',
            description: 'Canes, rollators and walkers.',
            display: 'grid',
            children: [
              {
                slug: 'walking-canes',
                name: 'Walking Canes',
                description: 'Adjustable, folding and offset canes.',
                count: 12,
                family: mobility(
                  'WK',
                  ['Walking Cane', 'Folding Cane', 'Offset Cane', 'Quad Cane'],
                  ['EasyStep', 'StrideWell', 'Comfort', 'Classic'],
                  ['Standard', 'Tall'],
                  ['Black', 'Bronze', 'Blue', 'Burgundy'],
                  [1499, 3999],
                ),
              },
              {
                slug: 'rollators',
                name: 'Rollators',
                description: 'Four-wheel rollators with seats and brakes.',
                count: 12,
                family: mobility(
                  'RL',
                  ['Rollator with Seat', 'Lightweight Rollator', 'Bariatric Rollator'],
                  ['Voyager', 'Cruiser', 'Metro', 'Nova'],
                  ['6" Wheels', '8" Wheels'],
                  ['Red', 'Blue', 'Black', 'Silver'],
                  [8999, 24999],
                ),
              },
              {
                slug: 'walkers-and-frames',
                name: 'Walkers & Frames',
                description: 'Folding walkers and walking frames.',
                count: 10,
                family: mobility(
                  'WF',
                  ['Folding Walker', 'Two Button Walker', 'Knee Walker'],
                  ['EasyStep', 'Steady', 'Guide'],
                  ['Adult', 'Junior'],
                  null,
                  [3999, 12999],
                ),
              },
            ],
          },
          {
            slug: 'wheelchairs',
            name: 'Wheelchairs',
            description: 'Transport and self-propelled wheelchairs.',
            display: 'grid',
            children: [
              {
                slug: 'transport-chairs',
                name: 'Transport Chairs',
                description: 'Lightweight transport chairs for carers.',
                count: 10,
                family: mobility(
                  'TC',
                  ['Transport Chair', 'Lightweight Transport Chair', 'Travel Wheelchair'],
                  ['Journey', 'Swift', 'Lite', 'Companion'],
                  ['17" Seat', '19" Seat'],
                  ['Blue', 'Red', 'Black'],
                  [14999, 34999],
                ),
              },
              {
                slug: 'self-propelled-wheelchairs',
                name: 'Self-Propelled Wheelchairs',
                description: 'Standard and bariatric self-propelled wheelchairs.',
                count: 8,
                family: mobility(
                  'SP',
                  ['Self-Propelled Wheelchair', 'Bariatric Wheelchair'],
                  ['Freedom', 'Atlas', 'Summit', 'Voyager'],
                  ['18" Seat', '20" Seat', '22" Seat'],
                  ['Black', 'Silver', 'Blue'],
                  [19999, 59999],
                ),
              },
            ],
          },
          {
            slug: 'bathroom-safety',
            name: 'Bathroom Safety',
            description: 'Shower chairs, grab bars and raised toilet seats.',
            children: [
              {
                slug: 'shower-chairs',
                name: 'Shower Chairs',
                description: 'Shower chairs and transfer benches.',
                count: 10,
                family: mobility(
                  'SC',
                  ['Shower Chair', 'Shower Stool', 'Tub Transfer Bench'],
                  ['AquaSafe', 'Splash', 'Harbor'],
                  ['Standard', 'With Back', 'With Arms'],
                  null,
                  [2999, 8999],
                ),
              },
              {
                slug: 'grab-bars',
                name: 'Grab Bars',
                description: 'Wall-mounted and suction grab bars.',
                count: 10,
                family: mobility(
                  'GB',
                  ['Grab Bar', 'Suction Grab Bar', 'Fold Away Grab Bar'],
                  ['SteadyGrip', 'Secure', 'Anchor'],
                  ['12"', '16"', '24"', '32"'],
                  ['White', 'Silver'],
                  [1299, 4999],
                ),
              },
              {
                slug: 'raised-toilet-seats',
                name: 'Raised Toilet Seats',
                description: 'Raised toilet seats and safety frames.',
                count: 6,
                family: mobility(
                  'RT',
                  ['Raised Toilet Seat', 'Toilet Safety Frame'],
                  ['Comfort', 'Lift'],
                  ['2"', '4"', '6"'],
                  null,
                  [2499, 6999],
                ),
              },
            ],
          },
          {
            slug: 'ramps',
            name: 'Ramps',
            description: 'Threshold and portable wheelchair ramps.',
            count: 6,
            family: mobility(
              'RP',
              ['Threshold Ramp', 'Portable Folding Ramp', 'Modular Ramp'],
              ['Access', 'Bridge'],
              ["2'", "4'", "6'", "8'"],
              null,
              [4999, 29999],
            ),
          },
        ],
      },
      {
        slug: 'incontinence',
        name: 'Incontinence',
        description: 'Briefs, protective underwear, pads and underpads.',
        display: 'grid',
        children: [
          {
            slug: 'adult-briefs',
            name: 'Adult Briefs',
            description: 'Tab-style adult briefs for heavy incontinence.',
            count: 12,
            family: incontinence(
              'AB',
              ['Adult Brief', 'Overnight Brief', 'Breathable Brief'],
              ['DryNight', 'Comfort Plus', 'Secure', 'Ultra'],
              ['Small', 'Medium', 'Large', 'X-Large', 'XX-Large'],
              [1299, 2499],
            ),
          },
          {
            slug: 'protective-underwear',
            name: 'Protective Underwear',
            description: 'Pull-up protective underwear.',
            count: 12,
            family: incontinence(
              'PU',
              ['Protective Underwear', 'Pull-Up Underwear', 'Overnight Underwear'],
              ['DryNight', 'Active', 'Discreet', 'Classic'],
              ['Small', 'Medium', 'Large', 'X-Large'],
              [1199, 2299],
            ),
          },
          {
            slug: 'bladder-control-pads',
            name: 'Bladder Control Pads',
            description: 'Light and moderate bladder control pads.',
            count: 12,
            family: incontinence(
              'BP',
              ['Bladder Control Pad', 'Guard for Men', 'Liner'],
              ['DryNight', 'Light', 'Fresh', 'Everyday'],
              ['Light', 'Moderate', 'Heavy', 'Overnight'],
              [599, 1399],
            ),
          },
          {
            slug: 'underpads',
            name: 'Underpads',
            description: 'Disposable and washable bed pads.',
            count: 10,
            family: incontinence(
              'UP',
              ['Disposable Underpad', 'Washable Bed Pad', 'Chair Pad'],
              ['DryNight', 'Protect', 'Shield'],
              ['23" x 36"', '30" x 30"', '30" x 36"', '36" x 36"'],
              [999, 3999],
            ),
          },
          {
            slug: 'skin-care',
            name: 'Skin Care',
            description: 'Barrier creams, wipes and cleansers.',
            count: 8,
            family: incontinence(
              'SK',
              ['Barrier Cream', 'Cleansing Wipes', 'No-Rinse Cleanser', 'Body Wash'],
              ['Gentle', 'Soothe', 'Fresh'],
              ['4 oz', '8 oz', '16 oz'],
              [499, 1499],
            ),
          },
          {
            slug: 'care-home-bulk',
            name: 'Care Home Bulk Supplies',
            description: 'Trade bulk supplies for care homes and clinics.',
            count: 6,
            family: incontinence(
              'CH',
              ['Bulk Adult Brief', 'Bulk Underpad', 'Bulk Wipes'],
              ['Facility', 'Clinic'],
              ['Medium', 'Large', 'X-Large'],
              [4999, 9999],
            ),
            trade: true,
          },
        ],
      },
    ],
  },
]

/** Words for benchmark catalogue names. */
export const BENCH_STEMS = [
  'Fire Exit Sign',
  'No Smoking Sign',
  'Caution Wet Floor Sign',
  'First Aid Sign',
  'Hard Hat Area Sign',
  'Steel Locker',
  'Mesh Operator Chair',
  'Straight Desk',
  'Cycle Shelter',
  'PVC Banner',
  'Asset Label',
  'Safety Poster',
  'Floor Graphic',
  'Door Nameplate',
  'Filing Cabinet',
  'Canteen Table',
]
export const BENCH_VARIANTS = [
  'Arrow Left',
  'Arrow Right',
  'Landscape',
  'Portrait',
  'Compact',
  'Heavy Duty',
  'Classic',
  'Premium',
  'Text Only',
  'Symbol Only',
]
export const FLASH_LABELS = ['Best Seller', 'New', 'Sale', 'Price Drop', 'Free Delivery']
