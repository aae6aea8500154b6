/**
 * The words the demo catalogue is built from: category trees per site (vocabulary.harbour.ts,
 * vocabulary.northgate.ts), product families with their name stems, variants, SKU axes and prices
 * (vocabulary.families.ts), the words they share (vocabulary.axes.ts) and the builders' plans
 * (vocabulary.builders.ts). Plain data; generate.ts combines it.
 */
import type { SiteSpec } from './vocabulary.types.ts'
import { HARBOUR } from './vocabulary.harbour.ts'
import { NORTHGATE } from './vocabulary.northgate.ts'

export type { BuilderPlan, CategorySpec, FamilySpec, ImageStyle, SiteSpec } from './vocabulary.types.ts'

export const SITE_SPECS: SiteSpec[] = [HARBOUR, NORTHGATE]

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
