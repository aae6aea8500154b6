/**
 * A customer's saved cards (spec §3 "Saved card"). The checkout keeps a card after a successful
 * payment when the shopper ticks save_card, and reuses one with its security code; the account
 * area lists and removes them. Every call takes the owning customer's id: another customer's
 * card is the same "not found" as a card that does not exist.
 */
import { and, asc, eq } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { savedCards } from './customers.tables.ts'

/** What the browser may see of a saved card: never the provider's token. */
export interface SavedCard {
  id: number
  provider: string
  last4Digits: string
  cardType: string
  expiry: string
}

export interface NewSavedCard {
  provider: string
  token: string
  last4Digits: string
  cardType: string
  expiry?: string
}

/** The customer's cards, oldest first: the first is the checkout's default (spec §4). */
export async function listSavedCards(db: Executor, customerId: number): Promise<SavedCard[]> {
  return db
    .select({
      id: savedCards.id,
      provider: savedCards.provider,
      last4Digits: savedCards.last4Digits,
      cardType: savedCards.cardType,
      expiry: savedCards.expiry,
    })
    .from(savedCards)
    .where(eq(savedCards.customerId, customerId))
    .orderBy(asc(savedCards.createdAt), asc(savedCards.id))
}

/** Keeps a card once: saving the same provider token again returns the existing card. */
export async function saveCard(db: Executor, customerId: number, card: NewSavedCard): Promise<SavedCard> {
  const values = {
    customerId,
    provider: card.provider,
    token: card.token,
    last4Digits: card.last4Digits,
    cardType: card.cardType,
    expiry: card.expiry ?? '',
  }
  const [row] = await db
    .insert(savedCards)
    .values(values)
    .onConflictDoUpdate({
      target: [savedCards.customerId, savedCards.provider, savedCards.token],
      set: { last4Digits: values.last4Digits, cardType: values.cardType, expiry: values.expiry },
    })
    .returning()
  const saved = row!
  return {
    id: saved.id,
    provider: saved.provider,
    last4Digits: saved.last4Digits,
    cardType: saved.cardType,
    expiry: saved.expiry,
  }
}

/** The provider token of the customer's own card, for a payment; null when not theirs. */
export async function savedCardToken(
  db: Executor,
  customerId: number,
  cardId: number,
): Promise<{ provider: string; token: string } | null> {
  const [row] = await db
    .select({ provider: savedCards.provider, token: savedCards.token })
    .from(savedCards)
    .where(and(eq(savedCards.id, cardId), eq(savedCards.customerId, customerId)))
  return row ?? null
}

/** Removes the customer's own card; false when there was no such card of theirs. */
export async function removeSavedCard(db: Executor, customerId: number, cardId: number): Promise<boolean> {
  const removed = await db
    .delete(savedCards)
    .where(and(eq(savedCards.id, cardId), eq(savedCards.customerId, customerId)))
    .returning({ id: savedCards.id })
  return removed.length > 0
}
