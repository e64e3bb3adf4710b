import { isIPv4, isIPv6 } from "node:net";

/**
 * The part of a client address that per-IP limits count (DECISIONS 3: 5 key generations per
 * client IP an hour; the newsletter's 3). An IPv6 host is normally given a whole /64 and picks
 * addresses from it at will, so counting each address let one host through without limit: IPv6
 * counts by its /64. An IPv4-mapped address (`::ffff:203.0.113.9`, how a dual-stack socket
 * reports an IPv4 client) is that IPv4 address, so both spellings share one count. Anything
 * else (an unparsable value, "unknown") is counted as it is.
 */
export function clientBucket(ip: string): string {
  if (isIPv4(ip)) return ip;
  const address = ip.replace(/%.*$/, "");
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const before = head === "" ? [] : head.split(":");
  const after = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : new Array<string>(8 - before.length - after.length).fill("0");
  return [...before, ...zeros, ...after].map((g) => parseInt(g, 16));
}
