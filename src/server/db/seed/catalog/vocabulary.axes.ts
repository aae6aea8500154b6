/**
 * Words shared by the product families: colours, sign sizes, materials and grids, and each kind
 * of product's description sentences and specification values.
 */
import type { FamilySpec, ImageStyle } from './vocabulary.types.ts'

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

export function signFamily(
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

export const FURNITURE_BLURBS = [
  'Built for daily commercial use and tested to BS EN 1335.',
  'Delivered free to ground floor rooms, fully assembled on request.',
  'Backed by a five-year guarantee on frames and mechanisms.',
  'Easy-clean finishes that stand up to busy offices and schools.',
  'Matching ranges let you furnish a whole floor in one order.',
  'Sturdy steel frames with adjustable feet for uneven floors.',
]
export const FURNITURE_SPECS: [string, string[]][] = [
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
export const SHELTER_BLURBS = [
  'Galvanised steel frames stand up to decades of British weather.',
  'Supplied with a full installation service or as a self-build kit.',
  'Clear polycarbonate roofs let light through while keeping the rain off.',
  'Bolt-down or root-fix foundations to suit your site.',
  'Add side panels, lighting and bins to complete the shelter.',
]
export const SHELTER_SPECS: [string, string[]][] = [
  ['Frame', ['Galvanised steel', 'Powder-coated steel', 'Timber']],
  ['Roof', ['Polycarbonate', 'Steel sheet', 'PET']],
  ['Height', ['2.1m', '2.3m', '2.5m']],
  ['Depth', ['1.5m', '2m', '2.5m']],
  ['Fixing', ['Bolt down', 'Root fix']],
  ['Installation', ['Included', 'Optional', 'Self build']],
  ['Snow load', ['0.6kN/m²', '0.75kN/m²']],
  ['Warranty', ['10 years', '15 years']],
]
export const PRINT_BLURBS = [
  'Printed on our own presses with fast proofs before production.',
  'Vivid full-colour print that resists fading for years.',
  'Upload your artwork or let our designers lay it out for free.',
  'Finished by hand and checked before despatch.',
  'Trade prices on larger runs: ask for Custom Pricing.',
]
export const PRINT_SPECS: [string, string[]][] = [
  ['Print', ['Full colour', 'Single colour', 'Screen printed']],
  ['Material', ['PVC 440gsm', 'Mesh 380gsm', 'Vinyl', 'Foamex 3mm', 'Correx 4mm']],
  ['Finish', ['Matt', 'Gloss', 'Laminated']],
  ['Artwork', ['Free artwork check', 'Design service available']],
  ['Turnaround', ['2 working days', '3 working days', '5 working days']],
  ['Made in', ['United Kingdom']],
]
export const MOBILITY_BLURBS = [
  'Lightweight and easy to adjust without tools.',
  'Rated for everyday use at home and in clinics.',
  'Non-slip rubber feet and comfortable ergonomic grips.',
  'Folds flat for travel and storage.',
  'Meets FDA Class I medical device requirements.',
  'Backed by our 90-day satisfaction guarantee.',
]
export const MOBILITY_SPECS: [string, string[]][] = [
  ['Weight capacity', ['250 lb', '300 lb', '350 lb', '400 lb']],
  ['Product weight', ['1.2 lb', '6 lb', '14 lb', '32 lb']],
  ['Height range', ['29"-38"', '31"-39"', '33"-37"']],
  ['Frame', ['Aluminum', 'Steel', 'Carbon fiber']],
  ['Folding', ['Yes', 'No']],
  ['Warranty', ['1 year', '3 years', 'Lifetime frame']],
  ['Latex free', ['Yes']],
]
export const INCONTINENCE_BLURBS = [
  'Super-absorbent core locks away moisture and neutralises odour.',
  'Breathable, cloth-like outer layer that is gentle on the skin.',
  'Wetness indicator shows when a change is needed.',
  'Discreet under everyday clothing.',
  'Case prices for care homes and clinics.',
]
export const INCONTINENCE_SPECS: [string, string[]][] = [
  ['Absorbency', ['Light', 'Moderate', 'Heavy', 'Maximum', 'Overnight']],
  ['Waist size', ['20"-31"', '32"-44"', '45"-58"', '59"-64"']],
  ['Count per pack', ['12', '14', '16', '18', '20']],
  ['Wetness indicator', ['Yes', 'No']],
  ['Latex free', ['Yes']],
  ['Gender', ['Unisex', 'Women', 'Men']],
]
