import { booleanSetting, type BooleanSettingName } from '../calendar/settings'
import { lookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Addresses a server-side request must never reach unless the operator allows it (SSRF): loopback,
 * private, link-local, carrier-grade NAT, multicast and reserved networks. An IPv4 address written
 * as IPv6 (`::ffff:127.0.0.1`) is checked as the IPv4 address it is.
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
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6')

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i

export function isPrivateAddress(address: string): boolean {
  const mapped = MAPPED_IPV4.exec(address)
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4')
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')
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
