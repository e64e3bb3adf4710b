import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook may never reach (issue 9, DECISIONS 5): loopback, private, link-local
 * (cloud metadata 169.254.169.254 included), CGNAT, unspecified, multicast and reserved
 * ranges, in IPv4 and IPv6, plus every IPv6 form that embeds an IPv4 address (mapped,
 * NAT64, 6to4, Teredo). It mirrors what the delivery agent (request-filtering-agent: all but
 * "unicast") refuses per connection; this copy serves the registration check, which has no
 * connection to filter.
 */
const blocked = new BlockList();
const V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V6: ReadonlyArray<readonly [string, number]> = [
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001::", 32],
  ["2001:2::", 48],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
];
for (const [net, prefix] of V4) blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of V6) blocked.addSubnet(net, prefix, "ipv6");

/** IPv4-mapped IPv6 in the canonical form the URL parser writes (`::ffff:7f00:1`). */
const MAPPED_V4 = /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/;

/** Canonical IPv6 text, so every spelling of an address meets the same rule. */
function canonicalV6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.replace(/^\[|\]$/g, "");
}

/** True for any address a delivery must not connect to; non-addresses count as forbidden. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return blocked.check(bare, "ipv4");
  let canonical: string;
  try {
    canonical = canonicalV6(bare);
  } catch {
    return true; // zone ids and other forms the URL parser rejects are never webhook targets
  }
  // Mapped addresses are refused outright, as the delivery agent refuses them.
  return MAPPED_V4.test(canonical) || blocked.check(canonical, "ipv6");
}
