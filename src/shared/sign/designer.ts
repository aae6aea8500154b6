/**
 * Props of the 'Design A Sign' page and the request it sends (the legacy add call: sku, catid,
 * qty, url, printableSVG, webVersionOfSVG, signReads, plus the design data the server draws from).
 */
import type { Bracket } from '../pricing.ts'
import type { SignDesign, SignSequence, SignSize } from './design.ts'

/** One size and material of the category's price grid (one SKU). */
export interface SignVariant {
  productId: number
  sku: string
  size: SignSize
  /** '300 × 200 mm' */
  sizeLabel: string
  material: string
  brackets: Bracket[]
}

export interface SignDesignerProps {
  category: { id: number; name: string; url: string }
  variants: SignVariant[]
  /** Reopened from the basket (?item_id=) */
  editing: {
    itemId: number
    sku: string
    quantity: number
    design: SignDesign
    sequence: SignSequence | null
  } | null
}

export interface SignAddItem {
  sku: string
  catid: number
  qty: number
  url: string
  printableSVG: string
  webVersionOfSVG: string
  signReads: string
  design: SignDesign
  sequence?: SignSequence
}

export interface SignAddRequest {
  items: SignAddItem[]
  /** Editing: the basket line (or any line of the numbered set) the design replaces */
  item_id?: number
}

export const SIGN_ADD_URL = '/design-a-sign/add'
