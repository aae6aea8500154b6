/**
 * The authentication e-mails as pure functions: data in, { to, subject, text, html } out, in the
 * site's brand. Delivery is someone else's job (the injected `sendMail`).
 */
import { escapeHtml } from '../../../shared/safe-html.ts'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

/**
 * Delivers one message. `key`, when given, is its idempotency key: a second delivery of the same
 * key is ignored (the app's mailer: `account:<key>` in the mail queue, ADR 0186).
 */
export type SendMail = (message: MailMessage, key?: string) => Promise<void>

export interface MailBrand {
  siteName: string
  /** Absolute URL of the site's logo, if it has one */
  logoUrl?: string | null
  /** e.g. 'http://localhost:3000' */
  baseUrl: string
  contactEmail?: string
}

function layout(
  brand: MailBrand,
  heading: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): string {
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.siteName)}" height="48">`
    : `<strong style="font-size:20px">${escapeHtml(brand.siteName)}</strong>`
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#12355b;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a></p>` +
      `<p style="font-size:13px;color:#555">If the button does not work, copy this address into your browser:<br><a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>`
    : ''
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(heading)}</title></head>`,
    '<body style="margin:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#1f2933">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    `<p><a href="${escapeHtml(brand.baseUrl)}/">${logo}</a></p>`,
    '<div style="background:#ffffff;border-radius:8px;padding:24px">',
    `<h1 style="font-size:20px;margin-top:0">${escapeHtml(heading)}</h1>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    button,
    '</div>',
    `<p style="font-size:12px;color:#6b7280">${escapeHtml(brand.siteName)}${brand.contactEmail ? ` · ${escapeHtml(brand.contactEmail)}` : ''}</p>`,
    '</div></body></html>',
  ].join('')
}

function text(
  brand: MailBrand,
  heading: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): string {
  return [
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    brand.siteName,
  ].join('\n')
}

function message(
  to: string,
  brand: MailBrand,
  subject: string,
  heading: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): MailMessage {
  return {
    to,
    subject,
    text: text(brand, heading, paragraphs, action),
    html: layout(brand, heading, paragraphs, action),
  }
}

export function verificationMail(brand: MailBrand, to: string, firstName: string, url: string): MailMessage {
  return message(
    to,
    brand,
    `Verify your email address - ${brand.siteName}`,
    'Verify your email address',
    [
      `Hello ${firstName},`,
      `Please confirm that ${to} is your email address by clicking the button below. The link works once and expires in 24 hours.`,
      'If you did not create an account, no further action is required.',
    ],
    { label: 'Verify Email Address', url },
  )
}

/** Sent instead of a verification link when someone registers with an address that has an account. */
export function alreadyRegisteredMail(
  brand: MailBrand,
  to: string,
  loginUrl: string,
  resetUrl: string,
): MailMessage {
  return message(
    to,
    brand,
    `You already have an account - ${brand.siteName}`,
    'You already have an account',
    [
      `Someone (hopefully you) tried to register with this email address at ${brand.siteName}, but an account already exists for it.`,
      `You can log in at ${loginUrl}. If you have forgotten your password, you can choose a new one at ${resetUrl}.`,
      'If this was not you, you can ignore this email; your account has not changed.',
    ],
    { label: 'Log In', url: loginUrl },
  )
}

export function passwordResetMail(brand: MailBrand, to: string, url: string): MailMessage {
  return message(
    to,
    brand,
    `Reset your password - ${brand.siteName}`,
    'Reset your password',
    [
      'You are receiving this email because we received a password reset request for your account.',
      'This password reset link will expire in 60 minutes and works once.',
      'If you did not request a password reset, no further action is required.',
    ],
    { label: 'Reset Password', url },
  )
}

export function welcomeMail(
  brand: MailBrand,
  to: string,
  firstName: string,
  accountUrl: string,
): MailMessage {
  return message(
    to,
    brand,
    `Welcome to ${brand.siteName}`,
    `Welcome to ${brand.siteName}`,
    [
      `Hello ${firstName},`,
      'Thank you for verifying your email address. Your account is ready: you can track orders, reorder and save baskets from your account.',
    ],
    { label: 'Go to Your Account', url: accountUrl },
  )
}

/**
 * To a PayPal or Amazon buyer whose account was created by their order (ADR 0074): the account
 * exists because of this order, and the link (a reset token under the hood) lets them choose a
 * password. Sent instead of the password reset mail, which speaks of a request they never made.
 */
export function accountCreatedMail(
  brand: MailBrand,
  to: string,
  firstName: string,
  orderNumber: number,
  setPasswordUrl: string,
): MailMessage {
  return message(
    to,
    brand,
    `Your account has been created - ${brand.siteName}`,
    'Your account has been created',
    [
      firstName ? `Hello ${firstName},` : 'Hello,',
      `Thank you for your order ${orderNumber}. We created an account at ${brand.siteName} for ${to} with this order, so that you can follow your orders and order again.`,
      'Your account has no password yet. To choose one, use the button below. The link expires in 60 minutes and works once; after that, choose "Forgot your password?" on the login page to get a new one.',
      'If you did not place this order, please contact us.',
    ],
    { label: 'Set Your Password', url: setPasswordUrl },
  )
}
