/**
 * The custom workwear builder: a garment in a colour, quantities by size, a logo printed or
 * embroidered at one or more positions, and optional text. The category's builder configuration
 * (colours, positions and their costs per garment) comes from the server; costs are integer minor
 * units ex VAT, charged per garment for each position and for the text.
 */

export interface WorkwearColour {
  name: string
  hex: string
}

export interface WorkwearPosition {
  id: string
  name: string
  /** Per garment, minor units ex VAT */
  cost: number
}

export interface WorkwearConfig {
  colours: WorkwearColour[]
  positions: WorkwearPosition[]
  /** Per garment for the optional text line */
  textCost: number
}

export interface WorkwearDesign {
  /** The garment: a product group of the category */
  garment: number
  garmentName: string
  colour: string
  /** Quantity by size label ('S', 'M' …) */
  sizes: Record<string, number>
  /** Ids of the chosen logo positions */
  positions: string[]
  text: string
  /** Logo kept from an earlier save of the same session */
  hasLogo: boolean
}

export const LOGO_MAX_BYTES = 2 * 1024 * 1024
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const
export const WORKWEAR_TEXT_MAX = 30

export const WORKWEAR_TEXT = {
  garment: 'Choose a garment.',
  colour: 'Choose a colour.',
  sizes: 'Enter a quantity for at least one size.',
  quantity: 'Quantities must be whole numbers from 0 to 9999.',
  positions: 'Choose at least one logo position.',
  logoRequired: 'Upload your logo (PNG, JPEG or SVG).',
  logoType: 'The logo must be a PNG, JPEG or SVG file.',
  logoTooLarge: 'The logo may not be larger than 2 MB.',
  logoUnreadable: 'This file could not be read as an image. Please upload a PNG, JPEG or SVG logo.',
  text: `The text may have at most ${WORKWEAR_TEXT_MAX} characters.`,
  notFound: 'This workwear design is no longer in your basket.',
} as const

/** Customisation cost of one garment: its positions plus the text, if any. */
export function customisationUnitCost(
  config: WorkwearConfig,
  positions: readonly string[],
  text: string,
): number {
  const byId = new Map(config.positions.map((p) => [p.id, p.cost]))
  const logo = positions.reduce((s, id) => s + (byId.get(id) ?? 0), 0)
  return logo + (text.trim() ? config.textCost : 0)
}
