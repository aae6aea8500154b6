import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, savedCards } from '../../src/server/db/schema.ts'
import {
  listSavedCards,
  removeSavedCard,
  saveCard,
  savedCardToken,
} from '../../src/server/modules/customers/saved-cards.service.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let t: TestDatabase
let owner: number
let other: number

beforeAll(async () => {
  t = await createTestDatabase()
  const db = t.database.db
  const [a] = await db.select().from(customers).where(eq(customers.email, 'demo@harbour-safety.example'))
  const [b] = await db.select().from(customers).where(eq(customers.email, 'twofactor@harbour-safety.example'))
  owner = a!.id
  other = b!.id
  // The demo shop seeds a card for the demo customer: start from none.
  await db.delete(savedCards).where(eq(savedCards.customerId, owner))
})
afterAll(() => t?.dispose())

const visa = {
  provider: 'sagepay',
  token: 'tok-visa-1',
  last4Digits: '0006',
  cardType: 'Visa',
  expiry: '1229',
}

describe('saved cards', () => {
  it('lists a customer’s cards oldest first and never shows the provider token', async () => {
    const db = t.database.db
    await saveCard(db, owner, visa)
    await saveCard(db, owner, { ...visa, token: 'tok-mc-2', last4Digits: '0001', cardType: 'MasterCard' })
    const cards = await listSavedCards(db, owner)
    expect(cards.map((c) => c.last4Digits)).toEqual(['0006', '0001'])
    expect(JSON.stringify(cards)).not.toContain('tok-')
  })

  it('keeps the same provider token once however often it is saved', async () => {
    const db = t.database.db
    const again = await saveCard(db, owner, { ...visa, expiry: '0130' })
    const cards = await listSavedCards(db, owner)
    expect(cards.filter((c) => c.id === again.id)).toHaveLength(1)
    expect(cards).toHaveLength(2)
    expect(again.expiry).toBe('0130')
  })

  it('gives the token only to the card’s owner and lets only the owner remove it', async () => {
    const db = t.database.db
    const [first] = await listSavedCards(db, owner)
    expect(await savedCardToken(db, other, first!.id)).toBeNull()
    expect(await savedCardToken(db, owner, first!.id)).toEqual({ provider: 'sagepay', token: 'tok-visa-1' })
    expect(await removeSavedCard(db, other, first!.id)).toBe(false)
    expect(await listSavedCards(db, owner)).toHaveLength(2)
    expect(await removeSavedCard(db, owner, first!.id)).toBe(true)
    expect(await removeSavedCard(db, owner, first!.id)).toBe(false)
    expect((await listSavedCards(db, owner)).map((c) => c.last4Digits)).toEqual(['0001'])
  })
})
