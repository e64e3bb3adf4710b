import { lookup as systemLookup, Resolver } from "node:dns/promises";

/** Every address a name resolves to, IPv4 and IPv6. */
export type ResolveAll = (hostname: string) => Promise<readonly string[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), as the rest of the process sees names. */
export const systemResolve: ResolveAll = async (hostname) =>
  (await systemLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const NO_RECORDS = new Set(["ENODATA", "ENOTFOUND"]);

/**
 * A resolver asking the given DNS servers (WEBHOOK_DNS_SERVERS, `ip` or `ip:port`) directly:
 * for operators who want webhook names resolved by a filtering resolver, and for tests that
 * start their own DNS server. A name with neither A nor AAAA records fails like ENOTFOUND.
 */
export function dnsServerResolve(servers: readonly string[]): ResolveAll {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  resolver.setServers([...servers]);
  const records = async (query: Promise<string[]>): Promise<string[]> => {
    try {
      return await query;
    } catch (error) {
      if (NO_RECORDS.has((error as NodeJS.ErrnoException).code ?? "")) return [];
      throw error;
    }
  };
  return async (hostname) => {
    const [v4, v6] = await Promise.all([records(resolver.resolve4(hostname)), records(resolver.resolve6(hostname))]);
    const all = [...v4, ...v6];
    if (all.length === 0) throw Object.assign(new Error(`${hostname} has no A or AAAA records`), { code: "ENOTFOUND" });
    return all;
  };
}

/** The resolver webhooks use, chosen from configuration. */
export function webhookResolver(servers: readonly string[] | undefined): ResolveAll {
  return servers === undefined || servers.length === 0 ? systemResolve : dnsServerResolve(servers);
}
