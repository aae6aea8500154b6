/**
 * The order form's basket, contact and addresses, as placement reads them: typed in, or chosen
 * from a logged-in customer's address book (a saved entry named by a guest, or not the
 * customer's, is not found). Every wrong value is a field message; nothing is written.
 */
import { countryInList } from '../../../shared/checkout-rules.ts'
import type { z } from 'zod'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import {
  CHECKOUT_TEXT,
  checkoutAddressSchema,
  checkoutContactSchema,
  type OrderForm,
} from '../../../shared/checkout.ts'
import type { AddressData, ContactData } from '../../../shared/customer.ts'
import type { LastOrder } from '../../lib/last-order.ts'
import { CustomerNotFoundError, type CustomerService } from '../customers/customers.service.ts'
import type { Site } from '../sites/sites.service.ts'
import type { OrderAddress } from './orders.tables.ts'
import { invalid, notFound } from './placement.errors.ts'

export interface Details {
  contact: ContactData
  shipping: AddressData
  billing: AddressData
  /** Entered (not chosen from the address book): what a guest account is made from */
  billingSeparate: boolean
}

/** The basket a submit is about: the page's basket if the session holds it (or just ordered it). */
export function basketOf(input: {
  form: Pick<OrderForm, 'cart_id'>
  sessionCartId: string | null
  lastOrder: LastOrder | null
}): string | null {
  const asked = input.form.cart_id ?? null
  if (asked && (asked === input.sessionCartId || asked === input.lastOrder?.cartRef)) return asked
  return input.sessionCartId ?? (asked && asked === input.lastOrder?.cartRef ? asked : null)
}

/** The contact and addresses of the order, checked; a refusal names every wrong field. */
export async function orderDetails(
  customers: CustomerService,
  input: { form: OrderForm; site: Site; customerId: number | null },
): Promise<Details> {
  const { form, site, customerId } = input
  const errors: Record<string, string[]> = {}
  const parse = <S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.output<S> | null => {
    const r = schema.safeParse(value ?? {})
    if (r.success) return r.data
    for (const [k, v] of Object.entries(fieldErrors(r.error))) errors[`${prefix}.${k}`] = v
    return null
  }
  const savedOnly = (id: number | null | undefined) => {
    // Saved entries belong to logged-in customers; any id from a guest is someone else's.
    if (id && customerId === null) throw notFound()
    return id ?? null
  }
  try {
    const contactId = savedOnly(form.customer_contact_id)
    const shippingId = savedOnly(form.customer_shipping_address_id)
    const billingId = form.showingBillingAddress ? savedOnly(form.customer_billing_address_id) : null
    const contact = contactId
      ? fromContactRow(await customers.contact(customerId!, contactId))
      : parse(checkoutContactSchema, form.contact, 'contact')
    const shipping = shippingId
      ? orderAddress(await customers.address(customerId!, 'shipping', shippingId))
      : parse(checkoutAddressSchema('shipping'), form.shipping_address, 'shipping_address')
    let billing: AddressData | null = shipping
    if (form.showingBillingAddress) {
      billing = billingId
        ? orderAddress(await customers.address(customerId!, 'billing', billingId))
        : parse(checkoutAddressSchema('billing'), form.billing_address, 'billing_address')
    }
    // The country is accepted only if in the site's list (§5), whatever else is wrong.
    const countryOf = (a: AddressData | null, raw: unknown) =>
      a?.country ??
      String((raw as Record<string, unknown> | null)?.country ?? '')
        .trim()
        .toUpperCase()
    const shippingCountry = countryOf(shipping, form.shipping_address)
    if (shippingCountry && !countryInList(site.settings.countries, shippingCountry))
      errors['shipping_address.country'] = [CHECKOUT_TEXT.countryInvalid]
    const billingCountry = form.showingBillingAddress ? countryOf(billing, form.billing_address) : ''
    if (billingCountry && !countryInList(site.settings.countries, billingCountry))
      errors['billing_address.country'] = [CHECKOUT_TEXT.countryInvalid]
    if (Object.keys(errors).length || !contact || !shipping || !billing) throw invalid(errors)
    return { contact, shipping, billing, billingSeparate: form.showingBillingAddress }
  } catch (err) {
    if (err instanceof CustomerNotFoundError) throw notFound()
    throw err
  }
}

/** An address as the order keeps it (no name or id of an address-book entry). */
export function orderAddress(a: AddressData): OrderAddress {
  return {
    company: a.company,
    address1: a.address1,
    address2: a.address2,
    town: a.town,
    county: a.county,
    postcode: a.postcode,
    country: a.country,
  }
}

function fromContactRow(r: ContactData & object): ContactData {
  return { firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone, company: r.company }
}
