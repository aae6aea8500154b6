/**
 * Small icons; all decorative (aria-hidden), their buttons and links carry the labels. Each is an
 * empty span drawn by its CSS mask (icons.css), in the colour of the text around it.
 */
import type { HTMLAttributes } from 'react'

type IconProps = Omit<HTMLAttributes<HTMLSpanElement>, 'children'>

function icon(name: string) {
  const base = `icon i-${name}`
  return function Icon({ className, ...props }: IconProps) {
    return <span aria-hidden="true" className={className ? `${base} ${className}` : base} {...props} />
  }
}

export const MenuIcon = icon('menu')
export const CloseIcon = icon('close')
export const ChevronDownIcon = icon('chevron-down')
export const CartIcon = icon('cart')
export const UserIcon = icon('user')
export const CheckIcon = icon('check')
export const PhoneIcon = icon('phone')
export const MailIcon = icon('mail')
