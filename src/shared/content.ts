/**
 * Content blocks as they reach the browser: Storyblok's block shape with every rich-text field
 * already rendered to sanitised HTML on the server (a string), and unsafe URLs blanked.
 */
import type { SafeHtml } from './safe-html.ts'
/** The site's third-party reviews widget: its https script and the global it defines. */
export interface ReviewsWidgetConfig {
  scriptUrl: string
  global: string
}

export interface PresentedBlok {
  _uid: string
  component: string
  [field: string]: unknown
}

/** Spec §9: blog and excerpt previews are 300 characters. */
export const PREVIEW_LENGTH = 300

export interface BlogCategoryLink {
  uuid: string
  name: string
  slug: string
  url: string
  children: { uuid: string; name: string; slug: string; url: string }[]
}

export interface BlogPostSummary {
  uuid: string
  name: string
  url: string
  image: { filename: string; alt: string } | null
  primary_category: { name: string; slug: string } | null
  /** Plain text, at most 300 characters */
  preview: string
  /** Optional text */
  text: SafeHtml | null
  date: string | null
}

export interface NewsletterSettings {
  firstNameRequired: boolean
  /** Shown once signed up; 'Signed up!' when empty */
  successMessage: string
}

export const NEWSLETTER_SIGNED_UP = 'Signed up!'
export const NEWSLETTER_SIGNING_UP = 'Signing up...'
export const NEWSLETTER_ERROR = 'There was an error submitting the form. Please try again later.'

/** Forms defined in content (the `form` block, embedded by form id). */
export interface FormField {
  name: string
  label: string
  type: 'text' | 'email' | 'tel' | 'textarea'
  required: boolean
  maxLength: number
}

export interface FormDefinition {
  id: string
  title: string
  fields: FormField[]
  submitLabel: string
  successMessage: string
}
