import type Sharp from 'sharp'

let loading: Promise<typeof Sharp> | null = null

/**
 * sharp (libvips) on first use: its native library and bindings cost a cold start tens of
 * milliseconds, and only image resizes, logos and print proofs need it (ADR 0108).
 */
export function loadSharp(): Promise<typeof Sharp> {
  return (loading ??= import('sharp').then((m) => m.default))
}
