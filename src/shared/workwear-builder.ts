/** Props of the `WorkwearBuilder` page and the save request it sends. */
import type { Bracket } from './pricing.ts'
import type { WorkwearConfig, WorkwearDesign } from './workwear.ts'

export interface WorkwearGarment {
  /** The product group */
  id: number
  name: string
  sizes: { size: string; productId: number; sku: string; brackets: Bracket[] }[]
}

export interface WorkwearBuilderProps {
  category: { id: number; name: string; url: string }
  config: WorkwearConfig
  garments: WorkwearGarment[]
  /** Reopened from the basket (?session_id=) */
  editing: { sessionId: string; design: WorkwearDesign; logoUrl: string | null } | null
}

export interface WorkwearSaveRequest {
  session_id?: string
  garment: number
  colour: string
  sizes: Record<string, number>
  positions: string[]
  text: string
  /** A new logo: its type and the file as base64 */
  logo?: { type: string; data: string; name?: string }
}
