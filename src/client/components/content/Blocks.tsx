/**
 * Content blocks: one React component per Storyblok component name, looked up in a registry
 * (like @storyblok/react's StoryblokComponent). Unknown components render nothing.
 */
import type { ComponentType } from 'react'
import type { PresentedBlok } from '../../../shared/content.ts'
import { AccordionBlock } from './AccordionBlock.tsx'
import { BlogPostGrid } from './BlogPostGrid.tsx'
import { ColumnsBlock } from './ColumnsBlock.tsx'
import { CountdownBlock } from './CountdownBlock.tsx'
import type { NestedBlocks } from './fields.ts'
import { FormBlock } from './FormBlock.tsx'
import { ImageBlock } from './ImageBlock.tsx'
import { ModalBlock } from './ModalBlock.tsx'
import { NewsletterBlock } from './NewsletterBlock.tsx'
import { ReviewsWidget } from './ReviewsWidget.tsx'
import { SliderBlock } from './SliderBlock.tsx'
import { ComplexTable, SimpleTable } from './Tables.tsx'
import { TextBlock } from './TextBlock.tsx'
import { VideoBlock } from './VideoBlock.tsx'

export type BlockComponent = ComponentType<{ blok: PresentedBlok; Blocks: NestedBlocks }>

export const blockRegistry: Record<string, BlockComponent> = {
  text: TextBlock,
  image: ImageBlock,
  simple_table: SimpleTable,
  complex_table: ComplexTable,
  accordion: AccordionBlock,
  slider: SliderBlock,
  columns: ColumnsBlock,
  form: FormBlock,
  video: VideoBlock,
  modal: ModalBlock,
  reviews_widget: ReviewsWidget,
  newsletter: NewsletterBlock,
  countdown: CountdownBlock,
  blog_post_grid: BlogPostGrid,
}

export function Blok({ blok }: { blok: PresentedBlok }) {
  const Component = blockRegistry[blok.component]
  if (!Component) return null
  return (
    <div className="content-block" data-block={blok.component}>
      <Component blok={blok} Blocks={Blocks} />
    </div>
  )
}

export function Blocks({ blocks, className = 'space-y-8' }: { blocks: unknown; className?: string }) {
  if (!Array.isArray(blocks) || blocks.length === 0) return null
  return (
    <div className={className}>
      {(blocks as PresentedBlok[]).map((b, i) => (
        <Blok key={b._uid ?? i} blok={b} />
      ))}
    </div>
  )
}
