/**
 * The IANA special-purpose address registries, every entry (issue 19 item 1), as the deny list
 * of webhook targets: https://www.iana.org/assignments/iana-ipv4-special-registry and
 * https://www.iana.org/assignments/iana-ipv6-special-registry (2025 state). Entries IANA marks
 * "globally reachable" (AS112, AMT, anycast relays, NAT64's well-known prefix) are denied too:
 * none of them is a place a customer's webhook receiver lives, and a complete copy is easier to
 * review than a hand-picked subset. The ranges outside the registries that we also refuse are
 * listed separately, each with its reason.
 */
export interface SpecialRange {
  readonly network: string;
  readonly prefix: number;
  readonly name: string;
}

export const IPV4_SPECIAL_PURPOSE: readonly SpecialRange[] = [
  { network: "0.0.0.0", prefix: 8, name: "this network" },
  { network: "0.0.0.0", prefix: 32, name: "this host on this network" },
  { network: "10.0.0.0", prefix: 8, name: "private-use" },
  { network: "100.64.0.0", prefix: 10, name: "shared address space (CGNAT)" },
  { network: "127.0.0.0", prefix: 8, name: "loopback" },
  { network: "169.254.0.0", prefix: 16, name: "link local (cloud metadata)" },
  { network: "172.16.0.0", prefix: 12, name: "private-use" },
  { network: "192.0.0.0", prefix: 24, name: "IETF protocol assignments" },
  { network: "192.0.0.0", prefix: 29, name: "IPv4 service continuity prefix" },
  { network: "192.0.0.8", prefix: 32, name: "IPv4 dummy address" },
  { network: "192.0.0.9", prefix: 32, name: "port control protocol anycast" },
  { network: "192.0.0.10", prefix: 32, name: "traversal using relays around NAT anycast" },
  { network: "192.0.0.170", prefix: 32, name: "NAT64/DNS64 discovery" },
  { network: "192.0.0.171", prefix: 32, name: "NAT64/DNS64 discovery" },
  { network: "192.0.2.0", prefix: 24, name: "documentation (TEST-NET-1)" },
  { network: "192.31.196.0", prefix: 24, name: "AS112-v4" },
  { network: "192.52.193.0", prefix: 24, name: "automatic multicast tunneling" },
  { network: "192.88.99.0", prefix: 24, name: "deprecated 6to4 relay anycast" },
  { network: "192.168.0.0", prefix: 16, name: "private-use" },
  { network: "192.175.48.0", prefix: 24, name: "direct delegation AS112 service" },
  { network: "198.18.0.0", prefix: 15, name: "benchmarking" },
  { network: "198.51.100.0", prefix: 24, name: "documentation (TEST-NET-2)" },
  { network: "203.0.113.0", prefix: 24, name: "documentation (TEST-NET-3)" },
  { network: "240.0.0.0", prefix: 4, name: "reserved" },
  { network: "255.255.255.255", prefix: 32, name: "limited broadcast" },
];

/** IPv4 ranges outside the special-purpose registry that are never a receiver. */
export const IPV4_ALSO_DENIED: readonly SpecialRange[] = [
  { network: "224.0.0.0", prefix: 4, name: "multicast (IANA multicast registry)" },
];

export const IPV6_SPECIAL_PURPOSE: readonly SpecialRange[] = [
  { network: "::1", prefix: 128, name: "loopback" },
  { network: "::", prefix: 128, name: "unspecified" },
  { network: "::ffff:0:0", prefix: 96, name: "IPv4-mapped" },
  { network: "64:ff9b::", prefix: 96, name: "IPv4-IPv6 translation (NAT64 well-known prefix)" },
  { network: "64:ff9b:1::", prefix: 48, name: "IPv4-IPv6 translation (NAT64 local-use prefix)" },
  { network: "100::", prefix: 64, name: "discard-only" },
  { network: "100:0:0:1::", prefix: 64, name: "dummy IPv6 prefix" },
  { network: "2001::", prefix: 23, name: "IETF protocol assignments" },
  { network: "2001::", prefix: 32, name: "Teredo" },
  { network: "2001:1::1", prefix: 128, name: "port control protocol anycast" },
  { network: "2001:1::2", prefix: 128, name: "traversal using relays around NAT anycast" },
  { network: "2001:1::3", prefix: 128, name: "DNS-SD service registration protocol anycast" },
  { network: "2001:2::", prefix: 48, name: "benchmarking" },
  { network: "2001:3::", prefix: 32, name: "automatic multicast tunneling" },
  { network: "2001:4:112::", prefix: 48, name: "AS112-v6" },
  { network: "2001:10::", prefix: 28, name: "deprecated ORCHID" },
  { network: "2001:20::", prefix: 28, name: "ORCHIDv2" },
  { network: "2001:30::", prefix: 28, name: "drone remote ID protocol entity tags" },
  { network: "2001:db8::", prefix: 32, name: "documentation" },
  { network: "2002::", prefix: 16, name: "6to4" },
  { network: "2620:4f:8000::", prefix: 48, name: "direct delegation AS112 service" },
  { network: "3fff::", prefix: 20, name: "documentation" },
  { network: "5f00::", prefix: 16, name: "segment routing SIDs" },
  { network: "fc00::", prefix: 7, name: "unique-local" },
  { network: "fe80::", prefix: 10, name: "link-local unicast" },
];

/** IPv6 ranges outside the special-purpose registry that are never a receiver. */
export const IPV6_ALSO_DENIED: readonly SpecialRange[] = [
  { network: "::", prefix: 96, name: "IPv4-compatible (deprecated, RFC 4291)" },
  { network: "::ffff:0:0:0", prefix: 96, name: "IPv4-translated (RFC 2765)" },
  { network: "fec0::", prefix: 10, name: "site-local (deprecated, RFC 3879)" },
  { network: "ff00::", prefix: 8, name: "multicast" },
];

/**
 * The only IPv6 space allocated for global unicast (RFC 4291, IANA IPv6 address space): an
 * address outside it cannot be a public receiver, whatever future registry entries say.
 */
export const IPV6_GLOBAL_UNICAST: SpecialRange = { network: "2000::", prefix: 3, name: "global unicast" };
