/** The SSRF guard of image downloads and webhook deliveries (docs/operations.md, docs/api.md §20). */
import { describe, expect, it } from 'vitest'
import { addressGuard, isPrivateAddress } from '../../src/network/addressGuard'

describe('the address guard', () => {
  it('refuses loopback, private, link-local and reserved addresses, in both families and IPv4 written as IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      // IPv4 carried otherwise: compatible, NAT64, local-use NAT64, 6to4, Teredo's client (XORed).
      '::127.0.0.1',
      '::a00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::8.8.8.8',
      '2002:7f00:1::1',
      '2002:c0a8:101::',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      // Documentation's networks (a machine may number itself in them), site-local, discard-only.
      '192.0.2.2',
      '198.51.100.1',
      '203.0.113.5',
      '2001:db8::1',
      'fec0::1',
      '100::1',
    ])
      expect(isPrivateAddress(address), address).toBe(true)
  })

  it('lets public addresses through, IPv4 written as IPv6 included', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
      '2a00:1450:4001:80b::200e',
    ])
      expect(isPrivateAddress(address), address).toBe(false)
  })

  it('checks hosts written as addresses, unless private addresses are allowed', () => {
    let allowed = false
    const guard = addressGuard(() => allowed)
    expect(guard.refusesLiteral(new URL('http://127.0.0.1:8080/hook'))).toBe(true)
    expect(guard.refusesLiteral(new URL('http://[::1]/hook'))).toBe(true)
    expect(guard.refusesLiteral(new URL('http://[64:ff9b::127.0.0.1]/hook'))).toBe(true)
    expect(guard.refusesLiteral(new URL('http://[::127.0.0.1]:3100/x.ics'))).toBe(true)
    expect(guard.refusesLiteral(new URL('https://8.8.8.8/hook'))).toBe(false)
    expect(guard.refusesLiteral(new URL('https://example.com/hook'))).toBe(false)
    allowed = true
    expect(guard.refusesLiteral(new URL('http://127.0.0.1:8080/hook'))).toBe(false)
  })

  it('refuses a name that resolves to a private address at connection time', async () => {
    const guard = addressGuard(() => false)
    const error = await new Promise<Error | null>((resolve) =>
      guard.lookup('localhost', {}, (failure) => resolve(failure)),
    )
    expect(error?.message).toBe('refused address')
  })
})
