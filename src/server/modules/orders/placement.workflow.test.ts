import { describe, expect, it, vi } from 'vitest'
import type { OrderForm } from '../../../shared/checkout.ts'
import { DomainError } from '../../lib/domain-error.ts'
import type { PaymentMethod } from '../payments/payment-methods.ts'
import type { Site } from '../sites/sites.service.ts'
import { emptyBasket, moved, OrderRefused } from './placement.errors.ts'
import {
  OrderPlacement,
  type PaymentGiveBack,
  type Placement,
  type PlacementDeps,
} from './placement.workflow.ts'
import { runSteps, type Step } from './workflow.ts'

const site = { id: 1, currency: 'GBP' } as Site
const contact = { firstName: 'Ada', lastName: 'Byron', email: 'ada@example.com', phone: '', company: '' }
const address = {
  company: '',
  address1: '1 Lane',
  address2: '',
  town: 'Town',
  county: '',
  postcode: 'AB1 2CD',
  country: 'GB',
}

/** A provider method whose authorise takes the money as attempt `att-1`. */
function providerMethod(authorise: PaymentMethod['authorise']): PaymentMethod {
  return {
    id: 'sagepay',
    available: () => true,
    parseDetails: () => ({ ok: true, details: {} }),
    authorise,
    settle: () => ({ transaction: { paymentDetails: {}, amount: 0, message: '', authCode: '' } }),
  }
}

/** The state as the reprice step leaves it for the pay step. */
function repriced(method: PaymentMethod): Placement {
  return {
    input: {
      site,
      baseUrl: 'https://shop.test',
      sessionCartId: 'cart-1',
      lastOrder: null,
      customerId: null,
      form: {} as OrderForm,
      idempotencyKey: null,
    },
    form: {} as OrderForm,
    cartId: 'cart-1',
    method,
    details: { contact, shipping: address, billing: address, billingSeparate: false },
    zone: 'UK',
    amount: 1234,
    payment: {},
    paidAttempt: null,
  }
}

function giveBack(resolution: 'voided' | 'needs_attention' = 'voided') {
  const attempt = { confirmedAmountMinor: 1234, amountMinor: 1234, resolution }
  return {
    markVoiding: vi.fn(async (_attemptId: string, _note: string) => true),
    voidUnclaimed: vi.fn(async () => attempt),
    get: vi.fn(async () => attempt),
  }
}

function placementWith(payments: ReturnType<typeof giveBack>) {
  const placement = new OrderPlacement({} as PlacementDeps)
  placement.payments = payments as unknown as PaymentGiveBack
  return placement
}

const failing = (err: unknown): Step<Placement> => ({
  name: 'write',
  run: () => {
    throw err
  },
})

describe('the placement workflow', () => {
  it('gives the payment back exactly once when a later step refuses the order', async () => {
    const payments = giveBack()
    const placement = placementWith(payments)
    const state = repriced(providerMethod(async () => ({ ok: true, details: { attemptId: 'att-1' } })))
    const refusal = moved('The total changed.', null)

    const thrown = await runSteps([placement.pay(), failing(refusal)], state).catch((e: unknown) => e)

    expect(payments.markVoiding).toHaveBeenCalledTimes(1)
    expect(payments.markVoiding).toHaveBeenCalledWith('att-1', 'order not placed: The total changed.')
    expect(payments.voidUnclaimed).toHaveBeenCalledTimes(1)
    expect(thrown).toBeInstanceOf(OrderRefused)
    const refused = thrown as OrderRefused
    expect(refused.code).toBe('basket_moved')
    expect(refused.paymentReturned).toBe(true)
    expect(refused.message).toMatch(/^The total changed\. .*£12\.34/)
  })

  it('says a person will refund it when the provider cannot give the payment back', async () => {
    const payments = giveBack('needs_attention')
    const placement = placementWith(payments)
    const state = repriced(providerMethod(async () => ({ ok: true, details: { attemptId: 'att-1' } })))

    const thrown = (await runSteps([placement.pay(), failing(emptyBasket())], state).catch(
      (e: unknown) => e,
    )) as OrderRefused

    expect(payments.voidUnclaimed).toHaveBeenCalledTimes(1)
    expect(thrown.code).toBe('empty_basket')
    expect(thrown.paymentReturned).toBe(true)
    expect(thrown.message).not.toBe(emptyBasket().message)
  })

  it('gives nothing back when the provider declined: the pay step did not finish', async () => {
    const payments = giveBack()
    const placement = placementWith(payments)
    const state = repriced(
      providerMethod(async () => ({
        ok: false,
        code: 'payment_declined',
        message: 'Declined',
        answer: { retry: true },
      })),
    )

    const thrown = (await runSteps([placement.pay(), failing(emptyBasket())], state).catch(
      (e: unknown) => e,
    )) as DomainError

    expect(thrown).toBeInstanceOf(DomainError)
    expect(thrown.code).toBe('payment_declined')
    expect(thrown.message).toBe('Declined')
    expect(thrown.answer).toEqual({ retry: true })
    expect(payments.markVoiding).not.toHaveBeenCalled()
  })

  it('leaves a payment to the reconciler when a later step fails with a fault, not a refusal', async () => {
    const payments = giveBack()
    const placement = placementWith(payments)
    const state = repriced(providerMethod(async () => ({ ok: true, details: { attemptId: 'att-1' } })))
    const fault = new Error('connection reset')

    await expect(runSteps([placement.pay(), failing(fault)], state)).rejects.toBe(fault)
    expect(payments.markVoiding).not.toHaveBeenCalled()
  })

  it('gives back the payment the reconciler resumes when its order is refused', async () => {
    const payments = giveBack()
    const placement = placementWith(payments)
    const state = repriced(providerMethod(undefined))
    state.input.resumed = { details: { attemptId: 'att-9' } }
    state.paidAttempt = 'att-9'

    await runSteps([placement.pay(), failing(emptyBasket())], state).catch(() => null)

    expect(payments.markVoiding).toHaveBeenCalledTimes(1)
    expect(payments.markVoiding).toHaveBeenCalledWith('att-9', expect.stringContaining('order not placed'))
  })
})

describe('running steps', () => {
  const step = (name: string, log: string[], outcome: 'next' | 'done' = 'next'): Step<null> => ({
    name,
    run: () => {
      log.push(`run ${name}`)
      return outcome
    },
    compensate: async (_s, refusal) => {
      log.push(`undo ${name}`)
      return refusal
    },
  })

  it('compensates the finished steps in reverse order, once each, and never the step that refused', async () => {
    const log: string[] = []
    const refusing: Step<null> = {
      name: 'c',
      run: () => {
        log.push('run c')
        throw new DomainError('invalid', 'no')
      },
      compensate: async (_s, r) => {
        log.push('undo c')
        return r
      },
    }

    await expect(runSteps([step('a', log), step('b', log), refusing, step('d', log)], null)).rejects.toThrow(
      'no',
    )
    expect(log).toEqual(['run a', 'run b', 'run c', 'undo b', 'undo a'])
  })

  it('stops after a step that knows the answer', async () => {
    const log: string[] = []
    await runSteps([step('a', log, 'done'), step('b', log)], null)
    expect(log).toEqual(['run a'])
  })
})
