import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ATTEMPT_STATES } from '../payments/payments.types.ts'
import { placementVerdict, settlementEvent, type PlacementFacts } from './placement.invariant.ts'

const zone = fc.constantFrom('UK Mainland', 'Highlands and Islands', 'Northern Ireland', 'Ireland and Europe')
const money = fc.integer({ min: 1, max: 10_000_000 })
const confirmed = fc.option(
  fc.record({
    amountMinor: fc.integer({ min: 0, max: 10_000_000 }),
    currency: fc.constantFrom('GBP', 'USD', 'EUR'),
  }),
  { nil: null },
)
const facts: fc.Arbitrary<PlacementFacts> = fc.record({
  total: money,
  currency: fc.constantFrom('GBP', 'USD'),
  delivery: fc.record({
    addressZone: fc.option(zone, { nil: null }),
    pricedZone: fc.option(zone, { nil: null }),
    rateId: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
  }),
  payment: fc.oneof(
    fc.constant({ kind: 'purchase_order' as const }),
    fc.record({
      kind: fc.constant('provider' as const),
      attempt: fc.option(fc.record({ state: fc.constantFrom(...ATTEMPT_STATES), confirmed }), { nil: null }),
    }),
  ),
})

describe('placement invariant', () => {
  it('allows an order only for a confirmed amount and currency equal to the re-priced total', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const v = placementVerdict(f)
        if (!v.ok) return
        expect(v.amount).toBe(f.total)
        if (f.payment.kind === 'provider') {
          expect(f.payment.attempt?.confirmed).toEqual({ amountMinor: f.total, currency: f.currency })
          expect(['captured', 'authorised', 'pending']).toContain(f.payment.attempt?.state)
        }
      }),
    )
  })

  it('allows an order only when delivery was priced for the zone of the shipping address', () => {
    fc.assert(
      fc.property(facts, (f) => {
        if (placementVerdict(f).ok) {
          expect(f.delivery.addressZone).not.toBeNull()
          expect(f.delivery.pricedZone).toBe(f.delivery.addressZone)
          expect(f.delivery.rateId).not.toBeNull()
        }
      }),
    )
  })

  it('places a settled payment as placed and a pending one as pending_payment', () => {
    const base = {
      total: 5750,
      currency: 'GBP',
      delivery: { addressZone: 'UK Mainland', pricedZone: 'UK Mainland', rateId: 1 },
    }
    const with_ = (state: 'captured' | 'pending' | 'authorised') =>
      placementVerdict({
        ...base,
        payment: { kind: 'provider', attempt: { state, confirmed: { amountMinor: 5750, currency: 'GBP' } } },
      })
    expect(with_('captured')).toEqual({ ok: true, amount: 5750, status: 'placed' })
    expect(with_('authorised')).toEqual({ ok: true, amount: 5750, status: 'placed' })
    expect(with_('pending')).toEqual({ ok: true, amount: 5750, status: 'pending_payment' })
  })

  it('refuses a capture of £57.50 for a basket now worth £986.84 (defect 1)', () => {
    expect(
      placementVerdict({
        total: 98684,
        currency: 'GBP',
        delivery: { addressZone: 'UK Mainland', pricedZone: 'UK Mainland', rateId: 1 },
        payment: {
          kind: 'provider',
          attempt: { state: 'captured', confirmed: { amountMinor: 5750, currency: 'GBP' } },
        },
      }),
    ).toEqual({ ok: false, refusal: 'payment_amount_differs' })
  })

  it('refuses a purchase order to a country the site has no delivery zone for (defect 4)', () => {
    expect(
      placementVerdict({
        total: 1000,
        currency: 'USD',
        delivery: { addressZone: null, pricedZone: 'Contiguous US', rateId: 3 },
        payment: { kind: 'purchase_order' },
      }),
    ).toEqual({ ok: false, refusal: 'delivery_not_offered' })
  })

  it('confirms a settlement only for the order amount and currency, else fails it', () => {
    fc.assert(
      fc.property(
        money,
        fc.constantFrom('GBP', 'USD'),
        fc.constantFrom(...ATTEMPT_STATES),
        confirmed,
        (total, currency, state, c) => {
          const e = settlementEvent({ total, currency }, { state, confirmed: c })
          if (e === 'payment_confirmed') {
            expect(['captured', 'authorised']).toContain(state)
            expect(c).toEqual({ amountMinor: total, currency })
          }
          if (state === 'pending' || state === 'unknown') expect(e).toBeNull()
          if (state === 'declined' || state === 'failed' || state === 'voided')
            expect(e).toBe('payment_failed')
        },
      ),
    )
  })
})
