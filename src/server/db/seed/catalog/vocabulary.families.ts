/** The product families: name stems and variants, SKU axes, prices and page layouts of each. */
import type { FamilySpec } from './vocabulary.types.ts'
import {
  FURNITURE_BLURBS,
  FURNITURE_SPECS,
  INCONTINENCE_BLURBS,
  INCONTINENCE_SPECS,
  MOBILITY_BLURBS,
  MOBILITY_SPECS,
  PRINT_BLURBS,
  PRINT_SPECS,
  SHELTER_BLURBS,
  SHELTER_SPECS,
  signFamily,
} from './vocabulary.axes.ts'

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

export const F = {
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

export function furniture(
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

export function shelter(code: string, stems: string[]): FamilySpec {
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

export function print(
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

export function mobility(
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

export function incontinence(
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
