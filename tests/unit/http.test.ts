import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import qs from 'qs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { readBody } from '../../src/rest/http/body'
import { requestBody } from '../../src/server/requestBody'
import {
  booleanParam,
  idListParam,
  nonEmptyString,
  positiveIntParam,
  stringListParam,
} from '../../src/rest/http/coerce'
import { errorResponse, RestError } from '../../src/server/errors'
import { QUERY_PARSE_OPTIONS } from '../../src/rest/http/query'

const URL = 'http://localhost/api/cal/events/v1/events'

/** A query string as the pipeline reads it. */
const parseQuery = (search: string) => qs.parse(search, QUERY_PARSE_OPTIONS)

describe('query strings', () => {
  it('reads PHP-style brackets', () => {
    expect(parseQuery('?categories[0]=3&categories[1]=music&tags[]=4&tags[]=5')).toEqual({
      categories: ['3', 'music'],
      tags: ['4', '5'],
    })
    expect(
      parseQuery('organizer[0][organizer]=A&organizer[0][email]=a%40example.com&organizer[1]=7'),
    ).toEqual({
      organizer: [{ organizer: 'A', email: 'a@example.com' }, '7'],
    })
  })

  it('reads percent-encoded brackets, plus signs and empty values as strings', () => {
    expect(parseQuery('search=rock+%26+roll&venue%5B%5D=2&featured&page=')).toEqual({
      search: 'rock & roll',
      venue: ['2'],
      featured: '',
      page: '',
    })
  })

  it('takes the last value of a key repeated without brackets, as PHP does', () => {
    expect(parseQuery('status=publish&status=draft')).toEqual({ status: 'draft' })
    expect(parseQuery('page=1&per_page=5&page=2')).toEqual({ page: '2', per_page: '5' })
    expect(parseQuery('categories[0]=3&categories[0]=4')).toEqual({ categories: ['4'] })
    expect(parseQuery('tags[]=4&tags[]=5&tags[]=5')).toEqual({ tags: ['4', '5', '5'] })
  })

  it('keeps brackets beyond five levels as one literal key', () => {
    expect(parseQuery('a[b][c][d][e][f][g]=1')).toEqual({
      a: { b: { c: { d: { e: { f: { '[g]': '1' } } } } } },
    })
  })

  it('turns arrays past 100 entries into objects', () => {
    expect(parseQuery('include[100]=1')).toEqual({ include: { 100: '1' } })
    const many = Array.from({ length: 101 }, (_, i) => `include[]=${i + 1}`).join('&')
    const parsed = parseQuery(many)
    expect(Array.isArray(parsed.include)).toBe(false)
    expect(Object.keys(parsed.include as object)).toHaveLength(101)
  })

  it('reads at most 1000 parameters', () => {
    const query = Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&')
    const parsed = parseQuery(query)
    expect(Object.keys(parsed)).toHaveLength(1000)
    expect(parsed).not.toHaveProperty('p1000')
  })

  it('never reaches the object prototype', () => {
    const parsed = parseQuery(
      '__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][polluted]=1&toString=x',
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(parsed).toEqual({})
  })
})

function bodyRequest(
  body: BodyInit | null,
  contentType?: string,
  headers: Record<string, string> = {},
): Request {
  return new Request(URL, {
    method: 'POST',
    body,
    headers: contentType ? { 'Content-Type': contentType, ...headers } : headers,
  })
}

/** A body of `chunks` sent without Content-Length, as a chunked upload is. */
function streamedRequest(chunks: string[], contentType: string): Request {
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      controller.close()
    },
  })
  return new Request(URL, {
    method: 'POST',
    body: stream,
    headers: { 'Content-Type': contentType },
    duplex: 'half',
  } as RequestInit)
}

async function rejection(promise: Promise<unknown>): Promise<RestError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(RestError)
  return error as RestError
}

describe('readBody', () => {
  it('reads a JSON object, whatever the charset parameter', async () => {
    const body = await readBody(
      bodyRequest(
        '{"title":"Gig","cost":["0$","20$"],"venue":{"venue":"Hall"}}',
        'application/json; charset=utf-8',
      ),
      1000,
    )
    expect(body).toEqual({ title: 'Gig', cost: ['0$', '20$'], venue: { venue: 'Hall' } })
  })

  it.each([
    ['malformed JSON', '{"title": "Gig",'],
    ['a JSON array', '[1, 2]'],
    ['a JSON string', '"Gig"'],
    ['JSON null', 'null'],
    ['whitespace only', '   '],
  ])('refuses %s with rest_invalid_json', async (_, text) => {
    const error = await rejection(readBody(bodyRequest(text, 'application/json'), 1000))
    expect([error.code, error.status, error.message]).toEqual([
      'rest_invalid_json',
      400,
      'Invalid JSON body passed.',
    ])
  })

  // As the server in front of Next hands it over (`requestBody`) when the connection goes before the body ends.
  it('refuses a body that ends before it is complete as the caller’s, not the server’s, fault', async () => {
    const asPosted = (body: ReadableStream<Uint8Array>) =>
      new Request(URL, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json' },
        duplex: 'half',
      } as RequestInit)
    const warned: string[] = []
    const logger = { warn: (line: string) => void warned.push(line) }
    const incoming = new IncomingMessage(new Socket())
    incoming.destroy()
    const gone = await rejection(readBody(asPosted(requestBody(incoming).stream), 1000, logger))
    expect([gone.code, gone.status]).toEqual(['rest_incomplete_body', 400])
    // The caller gone is not the server's to log; anything else stopping the read gets one line.
    expect(warned).toEqual([])
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"title": "Gig"}'))
        controller.error(new Error('a parser broke'))
      },
    })
    const other = await rejection(readBody(asPosted(broken), 1000, logger))
    expect(other.code).toBe('rest_incomplete_body')
    expect(warned).toEqual(['a request body could not be read to its end: Error: a parser broke'])
  })

  it('refuses JSON that is not valid UTF-8', async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]) // {"a":"<0xff>"}
    expect((await rejection(readBody(bodyRequest(bytes, 'application/json'), 1000))).code).toBe(
      'rest_invalid_json',
    )
  })

  it('drops __proto__ keys from JSON', async () => {
    const body = await readBody(
      bodyRequest(
        '{"__proto__":{"polluted":1},"venue":{"__proto__":{"x":1},"venue":"Hall"}}',
        'application/json',
      ),
      1000,
    )
    expect(Object.keys(body)).toEqual(['venue'])
    expect(Object.keys(body.venue as object)).toEqual(['venue'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.assign({}, body)).toEqual({ venue: { venue: 'Hall' } })
  })

  it('reads an urlencoded body with brackets, the last of a key repeated without them', async () => {
    const body = await readBody(
      bodyRequest(
        'title=Draft&title=Gig&cost[]=0%24&cost[]=20%24&organizer[0][organizer]=A&all_day=true',
        'application/x-www-form-urlencoded',
      ),
      1000,
    )
    expect(body).toEqual({
      title: 'Gig',
      cost: ['0$', '20$'],
      organizer: [{ organizer: 'A' }],
      all_day: 'true',
    })
  })

  it('reads multipart text parts like an urlencoded body and keeps files as File values', async () => {
    const form = new FormData()
    form.append('title', 'Rock & roll = fun @0 [x]')
    form.append('cost[]', '0$')
    form.append('cost[]', '20$')
    form.append('organizer[0][organizer]', 'A')
    form.append('image', new File(['png bytes'], 'poster.png', { type: 'image/png' }))
    form.append('venue[image]', new File(['jpg bytes'], 'hall.jpg', { type: 'image/jpeg' }))
    const body = await readBody(new Request(URL, { method: 'POST', body: form }), 10_000)

    expect(body.title).toBe('Rock & roll = fun @0 [x]')
    expect(body.cost).toEqual(['0$', '20$'])
    expect(body.organizer).toEqual([{ organizer: 'A' }])
    const image = body.image as File
    expect(image).toBeInstanceOf(File)
    expect([image.name, image.type, await image.text()]).toEqual([
      'poster.png',
      'image/png',
      'png bytes',
    ])
    const venueImage = (body.venue as { image: File }).image
    expect([venueImage.name, await venueImage.text()]).toEqual(['hall.jpg', 'jpg bytes'])
  })

  it('refuses a broken multipart body with rest_invalid_multipart', async () => {
    const error = await rejection(
      readBody(bodyRequest('not multipart at all', 'multipart/form-data; boundary=xyz'), 1000),
    )
    expect([error.code, error.status]).toEqual(['rest_invalid_multipart', 400])
  })

  it.each([
    ['no Content-Type', null, 'title=Gig'],
    ['text/plain', 'text/plain', 'title=Gig'],
    ['an empty JSON body', 'application/json', ''],
    ['an empty urlencoded body', 'application/x-www-form-urlencoded', ''],
  ])('reads %s as no parameters', async (_, contentType, text) => {
    expect(await readBody(bodyRequest(text, contentType ?? undefined), 1000)).toEqual({})
  })

  it('reads a bodiless request as no parameters', async () => {
    expect(
      await readBody(new Request(URL, { headers: { 'Content-Type': 'application/json' } }), 1000),
    ).toEqual({})
  })

  it('refuses a body whose Content-Length exceeds the limit before reading it', async () => {
    const request = bodyRequest('{"title":"Gig"}', 'application/json', { 'Content-Length': '5000' })
    const error = await rejection(readBody(request, 1000))
    expect([error.code, error.status]).toEqual(['rest_request_too_large', 413])
    expect(request.bodyUsed).toBe(false)
  })

  it('refuses a streamed body without Content-Length once it grows past the limit', async () => {
    const request = streamedRequest(
      ['{"title":"', 'x'.repeat(600), 'x'.repeat(600), '"}'],
      'application/json',
    )
    expect(request.headers.get('Content-Length')).toBeNull()
    const error = await rejection(readBody(request, 1000))
    expect([error.code, error.status]).toEqual(['rest_request_too_large', 413])
  })

  it('refuses a body larger than a Content-Length that lies', async () => {
    const request = streamedRequest(
      ['title=', 'x'.repeat(2000)],
      'application/x-www-form-urlencoded',
    )
    request.headers.set('Content-Length', '10')
    expect((await rejection(readBody(request, 1000))).status).toBe(413)
  })

  it('reads a streamed body up to exactly the limit', async () => {
    const request = streamedRequest(['{"title":', '"abc"}'], 'application/json')
    expect(await readBody(request, '{"title":"abc"}'.length)).toEqual({ title: 'abc' })
  })
})

async function rendered(response: Response): Promise<[number, string | null, unknown]> {
  return [response.status, response.headers.get('Content-Type'), await response.json()]
}

describe('errors', () => {
  it('renders a RestError as the envelope with data.status first', async () => {
    const response = errorResponse(
      RestError.invalidParams({
        page: 'Must be a positive integer.',
        per_page: 'Must be a positive integer.',
      }),
    )
    expect(await rendered(response)).toEqual([
      400,
      'application/json; charset=UTF-8',
      {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): page, per_page',
        data: {
          status: 400,
          params: { page: 'Must be a positive integer.', per_page: 'Must be a positive integer.' },
          details: {
            page: {
              code: 'rest_invalid_param',
              message: 'Must be a positive integer.',
              data: { param: 'page' },
            },
            per_page: {
              code: 'rest_invalid_param',
              message: 'Must be a positive integer.',
              data: { param: 'per_page' },
            },
          },
        },
      },
    ])
  })

  it('builds the WordPress core errors', () => {
    const envelope = (error: RestError) => [error.code, error.status, error.message, error.data]
    expect(envelope(RestError.missingParams(['title', 'start_date']))).toEqual([
      'rest_missing_callback_param',
      400,
      'Missing parameter(s): title, start_date',
      { params: ['title', 'start_date'] },
    ])
    expect(envelope(RestError.noRoute())).toEqual([
      'rest_no_route',
      404,
      'No route was found matching the URL and request method.',
      {},
    ])
    expect(envelope(RestError.invalidJson())).toEqual([
      'rest_invalid_json',
      400,
      'Invalid JSON body passed.',
      {},
    ])
    expect(envelope(RestError.forbidden(false))).toEqual([
      'rest_forbidden',
      401,
      'Sorry, you are not allowed to do that.',
      {},
    ])
    expect(envelope(RestError.forbidden(true))).toEqual([
      'rest_forbidden',
      403,
      'Sorry, you are not allowed to do that.',
      {},
    ])
    expect(envelope(RestError.tooLarge(1024))).toEqual([
      'rest_request_too_large',
      413,
      'The request body is larger than the limit of 1024 bytes.',
      {},
    ])
  })

  it('keeps the given headers', async () => {
    const response = errorResponse(
      new RestError('rest-event-not-found', 'Event with ID 7 does not exist.', 404),
      {
        'Access-Control-Allow-Origin': '*',
        'Content-Type': 'text/html',
      },
    )
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*')
    expect(await rendered(response)).toEqual([
      404,
      'application/json; charset=UTF-8',
      {
        code: 'rest-event-not-found',
        message: 'Event with ID 7 does not exist.',
        data: { status: 404 },
      },
    ])
  })

  describe('for anything but a RestError', () => {
    beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined))
    afterEach(() => vi.restoreAllMocks())

    it.each([
      ['an Error', new Error('password=hunter2 at /srv/app/db.ts:12')],
      ['a string', 'select * from users failed'],
      ['undefined', undefined],
    ])('answers a generic 500 for %s and logs it', async (_, thrown) => {
      const response = errorResponse(thrown)
      const text = await response.clone().text()
      expect(await rendered(response)).toEqual([
        500,
        'application/json; charset=UTF-8',
        {
          code: 'rest_internal_error',
          message: 'The server could not complete the request.',
          data: { status: 500 },
        },
      ])
      expect(text).not.toMatch(/hunter2|select|db\.ts|at /)
      expect(console.error).toHaveBeenCalledWith(thrown)
    })
  })
})

function parsed(schema: z.ZodType, input: unknown): unknown {
  const result = schema.safeParse(input)
  return result.success ? result.data : `error: ${result.error.issues[0]!.message}`
}

describe('booleanParam', () => {
  const schema = booleanParam()

  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['1', true],
    ['0', false],
    ['true', true],
    ['false', false],
    ['TRUE', true],
    ['False', false],
  ])('reads %j as %j', (input, expected) => {
    expect(parsed(schema, input)).toBe(expected)
  })

  it.each(['yes', 'on', '', ' true', 2, null, ['1']])('refuses %j', (input) => {
    expect(parsed(schema, input)).toBe('error: Must be a boolean: true, false, 1 or 0.')
  })
})

describe('positiveIntParam', () => {
  const schema = positiveIntParam()

  it.each([
    [1, 1],
    ['1', 1],
    ['25', 25],
    ['007', 7],
    [2147483647, 2147483647],
  ])('reads %j as %j', (input, expected) => {
    expect(parsed(schema, input)).toBe(expected)
  })

  it.each([
    'foo',
    '-1',
    '0',
    'foo bar',
    '1.5',
    '',
    ' 1',
    '1e3',
    '2147483648',
    0,
    -1,
    1.5,
    null,
    ['1'],
  ])('refuses %j', (input) => {
    expect(parsed(schema, input)).toBe('error: Must be a positive integer.')
  })
})

describe('idListParam', () => {
  const schema = idListParam()

  it.each([
    ['1, 2,3', [1, 2, 3]],
    ['4', [4]],
    [4, [4]],
    [
      [1, '2', ' 3 '],
      [1, 2, 3],
    ],
    ['1,,2,', [1, 2]],
  ])('reads %j as %j', (input, expected) => {
    expect(parsed(schema, input)).toEqual(expected)
  })

  it.each([
    ['', 'Must be a non-empty list: an array or a comma-separated string.'],
    [' , ', 'Must be a non-empty list: an array or a comma-separated string.'],
    [[], 'Must be a non-empty list: an array or a comma-separated string.'],
    [{ 0: '1', 100: '2' }, 'Must be a non-empty list: an array or a comma-separated string.'],
    [[{ id: 1 }], 'Must be a non-empty list: an array or a comma-separated string.'],
    ['1,foo', 'Must be a positive integer.'],
    [[1.5], 'Must be a positive integer.'],
    [['1,2'], 'Must be a positive integer.'],
    ['0', 'Must be a positive integer.'],
  ])('refuses %j', (input, message) => {
    expect(parsed(schema, input)).toBe(`error: ${message}`)
  })
})

describe('stringListParam', () => {
  const schema = stringListParam()

  it.each([
    ['publish, draft', ['publish', 'draft']],
    ['music', ['music']],
    [
      [' music ', 3, ''],
      ['music', '3'],
    ],
    [['Rock, Pop'], ['Rock, Pop']],
    [7, ['7']],
  ])('reads %j as %j', (input, expected) => {
    expect(parsed(schema, input)).toEqual(expected)
  })

  it.each(['', ' , ', [], [''], [null], { a: 'b' }, true])('refuses %j', (input) => {
    expect(parsed(schema, input)).toBe(
      'error: Must be a non-empty list: an array or a comma-separated string.',
    )
  })
})

describe('nonEmptyString', () => {
  const schema = nonEmptyString()

  it('keeps a non-empty string as it is', () => {
    expect(parsed(schema, ' rock ')).toBe(' rock ')
  })

  it.each(['', 3, ['a'], null])('refuses %j', (input) => {
    expect(parsed(schema, input)).toBe('error: Must be a non-empty string.')
  })
})

describe('JSON Schema of the parameter schemas', () => {
  const inputSchema = (schema: z.ZodType) => {
    const { $schema, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })
    expect($schema).toBe('https://json-schema.org/draft/2020-12/schema')
    return json
  }
  const listInput = {
    anyOf: [
      { type: ['string', 'number'] },
      { type: 'array', items: { type: ['string', 'number'] } },
    ],
  }

  it('documents the accepted input forms', () => {
    expect(inputSchema(booleanParam())).toEqual({
      anyOf: [
        { type: 'boolean' },
        { type: 'number', enum: [1, 0] },
        { type: 'string', enum: ['0', '1', 'true', 'false'] },
      ],
    })
    expect(inputSchema(positiveIntParam())).toEqual({
      anyOf: [
        { type: 'integer', minimum: 1, maximum: 2147483647 },
        { type: 'string', pattern: '^\\d+$' },
      ],
    })
    expect(inputSchema(idListParam())).toEqual(listInput)
    expect(inputSchema(stringListParam())).toEqual(listInput)
    expect(inputSchema(nonEmptyString())).toEqual({ type: 'string', minLength: 1 })
  })

  it('does not throw for output schemas either', () => {
    for (const schema of [
      booleanParam(),
      positiveIntParam(),
      idListParam(),
      stringListParam(),
      nonEmptyString(),
    ]) {
      expect(() => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' })).not.toThrow()
    }
  })
})
