import type { ComponentType } from 'react'
import type { PresentedBlok } from '../../../shared/content.ts'

/**
 * How a block that holds blocks (columns, modal) renders them: handed down by Blocks.tsx, and
 * declared here, in the leaf every block imports, so no block imports Blocks.tsx.
 */
export type NestedBlocks = ComponentType<{ blocks: unknown; className?: string }>

/** Field readers: content is loosely typed, so each block reads its fields defensively. */
export const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback)
export const num = (v: unknown, fallback: number): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN
  return Number.isFinite(n) ? n : fallback
}
export const list = (v: unknown): PresentedBlok[] =>
  Array.isArray(v)
    ? v.filter((x): x is PresentedBlok => !!x && typeof x === 'object' && 'component' in x)
    : []
export const asset = (v: unknown): { filename: string; alt: string } | null => {
  if (!v || typeof v !== 'object') return null
  const a = v as { filename?: unknown; alt?: unknown }
  return typeof a.filename === 'string' && a.filename ? { filename: a.filename, alt: str(a.alt) } : null
}
