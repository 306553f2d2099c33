import { describe, expect, it } from 'vitest'
import { parseCostInput } from '../../src/calendar/cost'
import { costDetails, offerPrice, renderCost } from '../../src/rest/serialize/cost'

describe('parseCostInput', () => {
  it.each([
    ['20$', { values: ['20'], symbol: '$', position: 'postfix' }],
    ['$23', { values: ['23'], symbol: '$', position: 'prefix' }],
    [['0$', '20$', '30$'], { values: ['0', '20', '30'], symbol: '$', position: 'postfix' }],
    ['€ 10', { values: ['10'], symbol: '€', position: 'prefix' }],
    ['10 - 20 €', { values: ['10', '20'], symbol: '', position: '' }],
    ['$10 - $20', { values: ['10', '20'], symbol: '', position: '' }],
    ['$10 – $20', { values: ['10', '20'], symbol: '', position: '' }],
    ['0$, 20$, 30$', { values: ['0', '20', '30'], symbol: '$', position: 'postfix' }],
    ['USD 15', { values: ['15'], symbol: 'USD', position: 'prefix' }],
    ['0', { values: [], symbol: '', position: '' }],
    [0, { values: [], symbol: '', position: '' }],
    [['0'], { values: ['0'], symbol: '', position: '' }],
    ['0$', { values: ['0'], symbol: '$', position: 'postfix' }],
    ['Free', { values: ['Free'], symbol: '', position: '' }],
    ['FREE', { values: ['FREE'], symbol: '', position: '' }],
    ['Free – 30$', { values: ['0', '30'], symbol: '', position: '' }],
    ['Members, guests', { values: ['Members, guests'], symbol: '', position: '' }],
    ['Donation', { values: ['Donation'], symbol: '', position: '' }],
    ['  Pay-what-you-can ', { values: ['Pay-what-you-can'], symbol: '', position: '' }],
    [
      ['Free', '10$', 'Donation'],
      { values: ['Free', '10', 'Donation'], symbol: '$', position: 'postfix' },
    ],
    [['10 - 20', '$5'], { values: ['10', '20', '5'], symbol: '', position: '' }],
    [25, { values: ['25'], symbol: '', position: '' }],
    [[0, 12.5], { values: ['0', '12.5'], symbol: '', position: '' }],
    [1.125, { values: ['1.125'], symbol: '', position: '' }],
    [1e21, { values: ['1000000000000000000000'], symbol: '', position: '' }],
    [1e-7, { values: ['0.0000001'], symbol: '', position: '' }],
    [1e308, { values: [`1${'0'.repeat(308)}`], symbol: '', position: '' }],
    [1.25e-21, { values: [`0.${'0'.repeat(20)}125`], symbol: '', position: '' }],
    [5e-324, { values: [`0.${'0'.repeat(323)}5`], symbol: '', position: '' }],
    [1.5e22, { values: ['15000000000000000000000'], symbol: '', position: '' }],
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
    expect(parseCostInput(['10$', '20€'])).toEqual({
      values: ['10', '20'],
      symbol: '',
      position: '',
    })
    expect(parseCostInput('$10, 20€')).toEqual({ values: ['10', '20'], symbol: '', position: '' })
  })

  it('keeps the symbol but drops the position when costs disagree on where it stands', () => {
    expect(parseCostInput(['$10', '20$'])).toEqual({
      values: ['10', '20'],
      symbol: '$',
      position: '',
    })
  })

  it('takes the symbol of the costs that carry one', () => {
    expect(parseCostInput(['10', '20$'])).toEqual({
      values: ['10', '20'],
      symbol: '$',
      position: 'postfix',
    })
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
  it('sorts amounts ascending numerically, as strings, costs without a number as their slug, counted as 0', () => {
    expect(
      costDetails(['30', 'Donation', '0', '100', '9.5', 'At the door'], '$', 'USD', 'postfix'),
    ).toEqual({
      currency_symbol: '$',
      currency_code: 'USD',
      currency_position: 'postfix',
      values: ['donation', '0', 'at-the-door', '9.5', '30', '100'],
    })
    expect(costDetails(['Free'], '', '', '').values).toEqual(['free'])
  })

  it('keeps the upstream key order', () => {
    expect(Object.keys(costDetails([], '', '', ''))).toEqual([
      'currency_symbol',
      'currency_code',
      'currency_position',
      'values',
    ])
  })

  it('does not reorder the stored values', () => {
    const values = ['30', '0']
    costDetails(values, '$', '', 'postfix')
    expect(values).toEqual(['30', '0'])
  })
})

describe('offerPrice', () => {
  it.each([
    [['0', '30'], 'Free – 30'],
    [['12.50'], '12.50'],
    [['0'], '0'],
    [['Free'], '0'],
    [['Donation'], 'Donation'],
    [[], ''],
  ])('is %j without a symbol: %j', (values, expected) => {
    expect(offerPrice(values)).toBe(expected)
  })
})
