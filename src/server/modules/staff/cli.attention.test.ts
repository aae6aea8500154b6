import { describe, expect, it } from 'vitest'
import { parseAttentionArgs } from './cli.attention.ts'
import { UsageError } from '../admin/cli.orders.ts'

const REF = '5b0e7a53-2f6c-4d7e-9c1a-3f8e2b6d4a10'

describe('npm run admin -- customers|payments: reading the command line', () => {
  it('reads a customer by id, or by e-mail (lower-cased) on a named site', () => {
    expect(parseAttentionArgs('customers', ['disable', '42'])).toEqual({
      kind: 'standing',
      change: 'disable',
      customer: { id: 42 },
    })
    expect(
      parseAttentionArgs('customers', ['reset-two-factor', 'Pat@Example.com', '--site', 'localhost']),
    ).toEqual({
      kind: 'standing',
      change: 'reset_two_factor',
      customer: { email: 'pat@example.com' },
      site: 'localhost',
    })
    expect(parseAttentionArgs('customers', ['enable', '7'])).toMatchObject({ change: 'enable' })
  })

  it('reads a list with its kind and cursor, paid by default', () => {
    expect(parseAttentionArgs('payments', ['list'])).toEqual({ kind: 'list', list: 'paid' })
    expect(
      parseAttentionArgs('payments', ['list', '--list', 'refunds', '--after', `1764316800000.${REF}`]),
    ).toEqual({ kind: 'list', list: 'refunds', after: `1764316800000.${REF}` })
    expect(
      parseAttentionArgs('payments', ['list', '--list', 'orders', '--after', '1764316800000.42']),
    ).toEqual({
      kind: 'list',
      list: 'orders',
      after: '1764316800000.42',
    })
  })

  it('reads each action on a payment reference', () => {
    expect(parseAttentionArgs('payments', ['give-back', REF])).toEqual({
      kind: 'act',
      intent: 'give_back',
      id: REF,
    })
    for (const [command, intent] of [
      ['reconcile', 'reconcile'],
      ['resolve', 'resolve'],
      ['place', 'place'],
    ])
      expect(parseAttentionArgs('payments', [command!, REF.toUpperCase()])).toEqual({
        kind: 'act',
        intent,
        id: REF,
      })
  })

  it('refuses an unknown command, a missing or bad target, a bad list or cursor and stray options', () => {
    const cases: ['customers' | 'payments', string[]][] = [
      ['customers', []],
      ['customers', ['delete', '42']],
      ['customers', ['disable']],
      ['customers', ['disable', 'not an email']],
      ['customers', ['disable', '0']],
      ['customers', ['disable', '99999999999']],
      ['customers', ['disable', '1', '2']],
      ['customers', ['disable', '1', '--list', 'paid']],
      ['payments', ['list', '--list', 'lost']],
      ['payments', ['list', '--after', 'nope']],
      ['payments', ['list', '--list', 'orders', '--after', `1764316800000.${REF}`]],
      ['payments', ['list', REF]],
      ['payments', ['refund', REF]],
      ['payments', ['place']],
      ['payments', ['place', 'abc']],
      ['payments', ['place', REF, '--site', 'localhost']],
      ['payments', ['place', REF, '--colour', 'red']],
    ]
    for (const [area, args] of cases)
      expect(() => parseAttentionArgs(area, args), `${area} ${args.join(' ')}`).toThrow(UsageError)
  })
})
