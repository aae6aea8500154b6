/**
 * What a registration leaves in the address book: its name, e-mail, telephone and company become
 * the new account's primary contact and, when a club registers with an address, that address
 * its primary shipping address. Written in the registration's own transaction, so an account is
 * never made without them. The app hands this to the auth module (`onRegistered`).
 */
import type { Tx } from '../../db/client.ts'
import type { CustomerRow } from '../auth/auth.tables.ts'
import type { RegisteredDetails } from '../auth/auth.service.ts'
import { customerAddresses, customerContacts } from './customers.tables.ts'

export async function keepRegistrationDetails(
  tx: Tx,
  customer: CustomerRow,
  details: RegisteredDetails,
): Promise<void> {
  await tx.insert(customerContacts).values({
    customerId: customer.id,
    firstName: details.firstName,
    lastName: details.lastName,
    email: details.email,
    phone: details.phone ?? '',
    company: details.company ?? '',
    primary: true,
  })
  if (details.address1 && details.town && details.postcode) {
    await tx.insert(customerAddresses).values({
      customerId: customer.id,
      type: 'shipping',
      company: details.company ?? '',
      address1: details.address1,
      town: details.town,
      postcode: details.postcode,
      country: 'GB',
      primary: true,
    })
  }
}
