import { describe, expect, it } from 'vitest'
import { costDetails, parseCostInput, renderCost } from '../../src/rest/serialize/cost'

describe('parseCostInput', () => {
  it.each([
    ['20$', { values: ['20'], symbol: '$', position: 'postfix' }],
    ['$23', { values: ['23'], symbol: '$', position: 'prefix' }],
    [['0$', '20$', '30$'], { values: ['0', '20', '30'], symbol: '$', position: 'postfix' }],
    ['€ 10', { values: ['10'], symbol: '€', position: 'prefix' }],
    ['10 - 20 €', { values: ['10', '20'], symbol: '€', position: 'postfix' }],
    ['$10 – $20', { values: ['10', '20'], symbol: '$', position: 'prefix' }],
    ['0$, 20$, 30$', { values: ['0', '20', '30'], symbol: '$', position: 'postfix' }],
    ['USD 15', { values: ['15'], symbol: 'USD', position: 'prefix' }],
    ['Free', { values: ['0'], symbol: '', position: '' }],
    ['FREE', { values: ['0'], symbol: '', position: '' }],
    ['Free – 30$', { values: ['0', '30'], symbol: '$', position: 'postfix' }],
    ['Donation', { values: ['Donation'], symbol: '', position: '' }],
    ['  Pay-what-you-can ', { values: ['Pay-what-you-can'], symbol: '', position: '' }],
    [['Free', '10$', 'Donation'], { values: ['0', '10', 'Donation'], symbol: '$', position: 'postfix' }],
    [25, { values: ['25'], symbol: '', position: '' }],
    [[0, 12.5], { values: ['0', '12.5'], symbol: '', position: '' }],
    [1.125, { values: ['1.125'], symbol: '', position: '' }],
    ['', { values: [], symbol: '', position: '' }],
    [[], { values: [], symbol: '', position: '' }],
  ])('reads %j', (input, expected) => {
    expect(parseCostInput(input)).toEqual(expected)
  })

  it.each([
    ['1,000$', '1000'],
    ['1.000 €', '1000'],
    ['1,000,000$', '1000000'],
    ['1.234,56 €', '1234.56'],
    ['$1,234.56', '1234.56'],
    ['10,50 €', '10.50'],
    ['$10.5', '10.5'],
    ['$0.125', '0.125'],
  ])('normalises the separators of %j', (input, value) => {
    expect(parseCostInput(input).values).toEqual([value])
  })

  it('keeps a cost whose number makes no sense as written', () => {
    expect(parseCostInput('1,2.3,4$')).toEqual({ values: ['1,2.3,4$'], symbol: '', position: '' })
  })

  it('lists a value once', () => {
    expect(parseCostInput(['20$', '20$', '$20']).values).toEqual(['20'])
  })

  it('drops the symbol when costs disagree on it', () => {
    expect(parseCostInput(['10$', '20€'])).toEqual({ values: ['10', '20'], symbol: '', position: '' })
    expect(parseCostInput('$10 - 20€')).toEqual({ values: ['10', '20'], symbol: '', position: '' })
  })

  it('keeps the symbol but drops the position when costs disagree on where it stands', () => {
    expect(parseCostInput(['$10', '20$'])).toEqual({ values: ['10', '20'], symbol: '$', position: '' })
  })

  it('takes the symbol of the costs that carry one', () => {
    expect(parseCostInput(['10', '20$'])).toEqual({ values: ['10', '20'], symbol: '$', position: 'postfix' })
  })
})

describe('renderCost', () => {
  it.each([
    [['23'], '$', 'prefix', '$23'],
    [['20'], '$', 'postfix', '20$'],
    [['0', '20', '30'], '$', 'postfix', 'Free – 30$'],
    [['30', '0', '20'], '$', 'postfix', 'Free – 30$'],
    [['10', '20'], '€', 'prefix', '€10 – €20'],
    [['10', '20'], '€', '', '€10 – €20'],
    [['10', '10.00'], '$', 'prefix', '$10'],
    [['12.50'], 'USD', 'postfix', '12.50USD'],
    [['0'], '$', 'prefix', 'Free'],
    [['0.00', '0'], '$', 'prefix', 'Free'],
    [['5', '100'], '', '', '5 – 100'],
    [['9', '10'], '', '', '9 – 10'],
    [[], '$', 'prefix', ''],
    [['Donation'], '$', 'prefix', 'Donation'],
    [['Donation', 'Pay what you can'], '', '', 'Donation, Pay what you can'],
    [['Donation', '15'], '$', 'prefix', '$15'],
  ] as const)('renders %j with %j %j as %j', (values, symbol, position, expected) => {
    expect(renderCost([...values], symbol, position)).toBe(expected)
  })

  it('renders what parseCostInput read', () => {
    const { values, symbol, position } = parseCostInput(['0$', '20$', '30$'])
    expect(renderCost(values, symbol, position)).toBe('Free – 30$')
  })
})

describe('costDetails', () => {
  it('sorts amounts ascending numerically, as strings, costs without a number last', () => {
    expect(costDetails(['30', 'Donation', '0', '100', '9.5', 'At the door'], '$', 'USD', 'postfix')).toEqual({
      currency_symbol: '$',
      currency_code: 'USD',
      currency_position: 'postfix',
      values: ['0', '9.5', '30', '100', 'Donation', 'At the door'],
    })
  })

  it('keeps the upstream key order', () => {
    expect(Object.keys(costDetails([], '', '', ''))).toEqual(['currency_symbol', 'currency_code', 'currency_position', 'values'])
  })

  it('does not reorder the stored values', () => {
    const values = ['30', '0']
    costDetails(values, '$', '', 'postfix')
    expect(values).toEqual(['30', '0'])
  })
})
