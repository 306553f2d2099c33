import { booleanSetting, type BooleanSettingName } from '../calendar/settings'
import { lookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Addresses a server-side request must never reach unless the operator allows it (SSRF): loopback,
 * private, link-local, carrier-grade NAT, multicast and reserved networks. An IPv4 address an IPv6
 * one carries (mapped `::ffff:127.0.0.1`, compatible `::127.0.0.1`, NAT64 `64:ff9b::127.0.0.1`, 6to4
 * `2002:7f00:1::`, Teredo's client) is checked as the IPv4 address it reaches.
 */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  // Documentation's (RFC 5737): no public host has them, and a machine may use them for itself.
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local (deprecated, still routed inside sites), discard-only and documentation's.
  ['fec0::', 10],
  ['100::', 64],
  ['2001:db8::', 32],
  ['ff00::', 8],
  // NAT64 for a network's own use (RFC 8215): whatever it translates to is that network's.
  ['64:ff9b:1::', 48],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6')

export function isPrivateAddress(address: string): boolean {
  if (isIP(address) !== 6) return PRIVATE.check(address, 'ipv4')
  const carried = carriedIpv4(address)
  return (carried !== undefined && PRIVATE.check(carried, 'ipv4')) || PRIVATE.check(address, 'ipv6')
}

/** An IPv6 address's eight 16-bit groups, its dotted IPv4 tail read as the last two. */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '')
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const before = head ? head.split(':') : []
  const after = tail ? tail.split(':') : []
  const zeros = tail === undefined ? [] : Array(8 - before.length - after.length).fill('0')
  return [...before, ...zeros, ...after].map((group) => parseInt(group, 16))
}

const dottedOf = (high: number, low: number) =>
  `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`

/** The IPv4 address an IPv6 address reaches through one of the ways of carrying it, if it is one. */
function carriedIpv4(address: string): string | undefined {
  const groups = groupsOf(address)
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, ...number[]]
  const zeroUpTo = (end: number) => groups.slice(0, end).every((group) => group === 0)
  if (zeroUpTo(5) && (g5 === 0 || g5 === 0xffff)) return dottedOf(g6!, g7!) // compatible, mapped
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return dottedOf(g6!, g7!) // NAT64 (RFC 6052)
  if (g0 === 0x2002) return dottedOf(g1!, g2!) // 6to4 (RFC 3056)
  if (g0 === 0x2001 && g1 === 0) return dottedOf(g6! ^ 0xffff, g7! ^ 0xffff) // Teredo's client
  return undefined
}

/** The guard would not connect: the address is private, loopback or link-local, or the name has none. */
export class RefusedAddress extends Error {
  constructor() {
    super('refused address')
  }
}

/** The checks of one kind of outgoing request; `allowPrivate` is read on each request, as the environment may say. */
export type AddressGuard = {
  /** For `http(s).request({ lookup })`: checks the address actually connected to, so DNS cannot change between check and use. */
  lookup: LookupFunction
  /** Hosts written as addresses skip DNS (and so the lookup): checks them as they are. */
  refusesLiteral(url: URL): boolean
}

export function addressGuard(allowPrivate: () => boolean): AddressGuard {
  return {
    lookup: (hostname, options, callback) => {
      lookup(hostname, { all: true })
        .then((addresses) => {
          const refused =
            !allowPrivate() && addresses.some((entry) => isPrivateAddress(entry.address))
          if (refused || !addresses.length) return callback(new RefusedAddress(), '', 4)
          if ((options as { all?: boolean }).all)
            return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses)
          callback(null, addresses[0]!.address, addresses[0]!.family)
        })
        .catch((error: Error) => callback(error, '', 4))
    },
    refusesLiteral(url) {
      const host = url.hostname.replace(/^\[|\]$/g, '')
      return isIP(host) !== 0 && !allowPrivate() && isPrivateAddress(host)
    },
  }
}

/** An on-or-off setting, read when asked (tests set them while the app runs). */
export const envFlag = (name: BooleanSettingName) => () => booleanSetting(name)
