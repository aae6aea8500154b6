import { describe, expect, it } from 'vitest'
import { parseOrdersArgs, UsageError } from './cli.orders.ts'

describe('npm run admin -- orders: reading the command line', () => {
  it('reads a hold with its reason and the version it expects', () => {
    expect(parseOrdersArgs(['hold', '100123', '--reason', 'Address check', '--version', '4'])).toEqual({
      kind: 'hold',
      orderNumber: 100123,
      reason: 'Address check',
      expectVersion: 4,
    })
  })

  it('reads a parcel with its lines as id:quantity pairs', () => {
    expect(
      parseOrdersArgs([
        'ship',
        '100123',
        '--ref',
        'P1',
        '--carrier',
        'DPD',
        '--tracking',
        'T1',
        '--line',
        '7:2',
        '--line',
        '8:1',
      ]),
    ).toEqual({
      kind: 'ship',
      orderNumber: 100123,
      shipmentRef: 'P1',
      carrier: 'DPD',
      trackingNumber: 'T1',
      lines: [
        { lineId: 7, quantity: 2 },
        { lineId: 8, quantity: 1 },
      ],
    })
  })

  it('reads a refund quote without a reason, and a refund in minor units', () => {
    expect(parseOrdersArgs(['refund', '5', '--quote'])).toMatchObject({ kind: 'refund', quote: true })
    expect(parseOrdersArgs(['refund', '5', '--amount', '1250', '--reason', 'Damaged'])).toMatchObject({
      amountMinor: 1250,
      reason: 'Damaged',
      quote: false,
    })
  })

  it('refuses a missing reason, a bad order number, a decimal amount, a bad line and an unknown status', () => {
    for (const args of [
      ['hold', '5'],
      ['hold', 'abc', '--reason', 'x'],
      ['refund', '5', '--amount', '12.50', '--reason', 'x'],
      ['ship', '5', '--ref', 'r', '--carrier', 'c', '--tracking', 't', '--line', '7'],
      ['list', '--status', 'lost'],
      ['frobnicate', '5'],
      ['hold', '5', '--reason', 'x', '--colour', 'red'],
    ])
      expect(() => parseOrdersArgs(args), args.join(' ')).toThrow(UsageError)
  })
})
