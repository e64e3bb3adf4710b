import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";

/**
 * A resolver for the delivery agent standing in for DNS: names in `table` resolve to the given
 * address, everything else goes to the system resolver. The table is mutable so a test can
 * re-point a "public" name at a private address between registration and delivery.
 */
export function fakeLookup(table: Map<string, string>): LookupFunction {
  return ((hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void) => {
    const address = table.get(hostname);
    if (address === undefined) {
      dnsLookup(hostname, options, callback as never);
      return;
    }
    const family = isIP(address);
    if (options.all === true) {
      const all: LookupAddress[] = [{ address, family }];
      callback(null, all);
    } else {
      callback(null, address, family);
    }
  }) as LookupFunction;
}
