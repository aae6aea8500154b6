import { describe, expect, it } from 'vitest'
import {
  MAX_QUANTITY,
  blurQuantity,
  chooseOption,
  clampQuantity,
  decrement,
  displayWhileTyping,
  gridRule,
  increment,
  parseQuantity,
  typedQuantity,
  type QuantityRule,
} from './quantity.ts'

const grid = gridRule() // minimum order 1, 0 allowed
const grid10 = gridRule(10)
const basket: QuantityRule = { minimumOrder: 5, allowZero: false }

describe('price grid defaults', () => {
  it('has a minimum order of 1 unless the SKU sets one', () => {
    expect(gridRule().minimumOrder).toBe(1)
    expect(gridRule(null).minimumOrder).toBe(1)
    expect(gridRule(0).minimumOrder).toBe(1)
    expect(gridRule(12).minimumOrder).toBe(12)
    expect(gridRule(12).allowZero).toBe(true)
  })
})

describe('parseQuantity', () => {
  it('reads whole numbers only', () => {
    expect(parseQuantity('12')).toBe(12)
    expect(parseQuantity(' 3 ')).toBe(3)
    expect(parseQuantity(0)).toBe(0)
    for (const v of ['', 'abc', '1.5', '-2', '1e3', null, undefined, -1, 2.5])
      expect(parseQuantity(v)).toBeNull()
  })
})

describe('plus', () => {
  it('adds one', () => {
    expect(increment(3, grid)).toBe(4)
    expect(increment('10', grid10)).toBe(11)
  })

  it('goes from 0 straight to the minimum order', () => {
    expect(increment(0, grid)).toBe(1)
    expect(increment(0, grid10)).toBe(10)
    expect(increment(4, grid10)).toBe(10)
  })

  it('stops at 9999', () => {
    expect(increment(9999, grid)).toBe(MAX_QUANTITY)
    expect(increment(20000, grid)).toBe(MAX_QUANTITY)
  })

  it('turns non-numeric text into 1', () => {
    expect(increment('abc', grid)).toBe(1)
    expect(increment('', grid)).toBe(1)
    // …which the minimum order then raises.
    expect(increment('abc', grid10)).toBe(10)
  })
})

describe('minus', () => {
  it('takes one away', () => {
    expect(decrement(5, grid)).toBe(4)
    expect(decrement(11, grid10)).toBe(10)
  })

  it('goes from the minimum order to 0 in a price grid', () => {
    expect(decrement(1, grid)).toBe(0)
    expect(decrement(10, grid10)).toBe(0)
    expect(decrement(0, grid)).toBe(0)
  })

  it('never goes below the minimum order where 0 is not allowed', () => {
    expect(decrement(5, basket)).toBe(5)
    expect(decrement(6, basket)).toBe(5)
  })

  it('turns non-numeric text into 1', () => {
    expect(decrement('x', grid)).toBe(1)
    expect(decrement('x', basket)).toBe(5)
  })

  it('comes down from above the maximum', () => {
    expect(decrement(20000, grid)).toBe(9998)
  })
})

describe('typing', () => {
  it('raises a value below the minimum order, but not 0, to the minimum', () => {
    expect(typedQuantity('3', grid10)).toBe(10)
    expect(typedQuantity('0', grid10)).toBe(0)
    expect(typedQuantity('15', grid10)).toBe(15)
  })

  it('caps at 9999, in the field too', () => {
    expect(typedQuantity('12345', grid)).toBe(MAX_QUANTITY)
    expect(displayWhileTyping('12345', grid)).toBe('9999')
    expect(displayWhileTyping('3', grid10)).toBe('3')
  })

  it('counts empty or non-numeric text as 0 in a grid', () => {
    expect(typedQuantity('', grid)).toBe(0)
    expect(typedQuantity('abc', grid)).toBe(0)
    expect(typedQuantity('', basket)).toBe(5)
  })

  it('raises the field to the minimum order on blur', () => {
    expect(blurQuantity('2', grid10)).toBe(10)
    expect(blurQuantity('0', grid10)).toBe(0)
    expect(blurQuantity('2', basket)).toBe(5)
  })
})

describe('clampQuantity', () => {
  it('keeps quantities within 0 or minimum..9999', () => {
    expect(clampQuantity(-4, grid)).toBe(0)
    expect(clampQuantity(2.7, grid)).toBe(2)
    expect(clampQuantity(7, grid10)).toBe(10)
    expect(clampQuantity(Number.NaN, grid)).toBe(0)
    expect(clampQuantity(1e9, grid)).toBe(MAX_QUANTITY)
    expect(clampQuantity(3, { minimumOrder: 1, allowZero: true, max: 5 })).toBe(3)
    expect(clampQuantity(8, { minimumOrder: 1, allowZero: true, max: 5 })).toBe(5)
  })
})

describe('choosing an option in a row', () => {
  const siblings = [
    { productId: 1, minimumOrder: 1 },
    { productId: 2, minimumOrder: 5 },
    { productId: 3, minimumOrder: 1 },
  ]

  it('zeroes the siblings and moves the row quantity to the chosen one', () => {
    expect(chooseOption({ 1: 3, 2: 0, 3: 0, 9: 4 }, siblings, 3)).toEqual({ 1: 0, 2: 0, 3: 3, 9: 4 })
  })

  it('raises the moved quantity to the chosen minimum order', () => {
    expect(chooseOption({ 1: 3 }, siblings, 2)).toEqual({ 1: 0, 2: 5, 3: 0 })
  })

  it('sets the minimum order when the row had no quantity', () => {
    expect(chooseOption({}, siblings, 1)).toEqual({ 1: 1, 2: 0, 3: 0 })
  })
})
