import { BlockList, isIP } from "node:net";
import {
  IPV4_ALSO_DENIED,
  IPV4_SPECIAL_PURPOSE,
  IPV6_ALSO_DENIED,
  IPV6_GLOBAL_UNICAST,
  IPV6_SPECIAL_PURPOSE,
  type SpecialRange,
} from "./special-purpose-registries.js";

/**
 * The one predicate deciding whether a webhook may reach an address (DECISIONS 5, issue 19):
 * the registration check and the delivery agent's per-connection lookup both call it, so an
 * address is refused at both points or at neither.
 */
export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

function blockListOf(ranges: readonly SpecialRange[], family: "ipv4" | "ipv6"): BlockList {
  const list = new BlockList();
  for (const r of ranges) list.addSubnet(r.network, r.prefix, family);
  return list;
}

const deniedV4 = [...IPV4_SPECIAL_PURPOSE, ...IPV4_ALSO_DENIED].map((r) => ({ range: r, list: blockListOf([r], "ipv4") }));
const deniedV6 = [...IPV6_SPECIAL_PURPOSE, ...IPV6_ALSO_DENIED].map((r) => ({ range: r, list: blockListOf([r], "ipv6") }));
const globalUnicast = blockListOf([IPV6_GLOBAL_UNICAST], "ipv6");

/** Metadata endpoints: refused even when WEBHOOK_ALLOW_PRIVATE_TARGETS lets tests use loopback. */
const METADATA = new Set(["169.254.169.254", "100.100.100.200", "fd00:ec2::254", "fd00:ec2:0:0:0:0:0:254"]);

/** Canonical IPv6 text as the WHATWG URL parser writes it (`::127.0.0.1` → `::7f00:1`), or null. */
function canonicalV6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null; // zone ids and other forms the URL parser rejects are never webhook targets
  }
}

/** The 16 bytes of a canonical IPv6 address (hex groups only, at most one `::`). */
function v6Bytes(canonical: string): Uint8Array {
  const [head = "", tail] = canonical.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = new Array<string>(8 - headGroups.length - tailGroups.length).fill("0");
  const groups = tail === undefined ? headGroups : [...headGroups, ...zeros, ...tailGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const value = parseInt(g, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

const dotted = (b: Uint8Array, at: number, xor = 0): string =>
  [0, 1, 2, 3].map((i) => ((b[at + i] ?? 0) ^ xor).toString()).join(".");

const startsWith = (b: Uint8Array, prefix: readonly number[]): boolean => prefix.every((v, i) => b[i] === v);

/**
 * Every IPv4 address an IPv6 address carries inside it: mapped (::ffff:0:0/96), translated
 * (::ffff:0:0:0/96), compatible (::/96), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48,
 * decoded as the /96 deployments use it), 6to4 (2002::/16) and Teredo (2001::/32: server and
 * the de-obfuscated client). Decoding lets the reason name the IPv4 target.
 */
export function embeddedIPv4(canonical: string): string[] {
  const b = v6Bytes(canonical);
  const zeroTo = (n: number): boolean => b.slice(0, n).every((v) => v === 0);
  const found: string[] = [];
  if (zeroTo(10) && b[10] === 0xff && b[11] === 0xff) found.push(dotted(b, 12));
  if (zeroTo(8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) found.push(dotted(b, 12));
  if (zeroTo(12)) found.push(dotted(b, 12));
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b])) found.push(dotted(b, 12));
  if (startsWith(b, [0x20, 0x02])) found.push(dotted(b, 2));
  if (startsWith(b, [0x20, 0x01, 0x00, 0x00])) found.push(dotted(b, 4), dotted(b, 12, 0xff));
  return found;
}

function verdictV4(address: string): AddressVerdict {
  const hit = deniedV4.find((d) => d.list.check(address, "ipv4"));
  return hit === undefined ? { allowed: true } : { allowed: false, reason: `${address} is ${hit.range.name}` };
}

function verdictV6(canonical: string): AddressVerdict {
  const hit = deniedV6.find((d) => d.list.check(canonical, "ipv6"));
  if (hit !== undefined) {
    const inner = embeddedIPv4(canonical).map(verdictV4).find((v) => !v.allowed);
    const carried = inner === undefined || inner.allowed ? "" : ` carrying ${inner.reason}`;
    return { allowed: false, reason: `${canonical} is ${hit.range.name}${carried}` };
  }
  if (!globalUnicast.check(canonical, "ipv6")) return { allowed: false, reason: `${canonical} is outside global unicast 2000::/3` };
  return { allowed: true };
}

export interface AddressPolicyOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: tests only; metadata endpoints stay refused. */
  readonly allowPrivateTargets: boolean;
}

/** Whether a webhook may connect to `address` (an IP literal; anything else is refused). */
export function judgeAddress(address: string, options: AddressPolicyOptions = { allowPrivateTargets: false }): AddressVerdict {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 0) return { allowed: false, reason: "not an IP address" };
  const canonical = family === 4 ? bare : canonicalV6(bare);
  if (canonical === null) return { allowed: false, reason: "not a plain IPv6 address" };
  const embedded = family === 6 ? embeddedIPv4(canonical) : [];
  if ([canonical, ...embedded].some((a) => METADATA.has(a))) return { allowed: false, reason: `${canonical} is a metadata endpoint` };
  if (options.allowPrivateTargets) return { allowed: true };
  return family === 4 ? verdictV4(canonical) : verdictV6(canonical);
}
