import { Resolver } from "node:dns/promises";

/** Every address a name resolves to, IPv4 and IPv6. */
export type ResolveAll = (hostname: string) => Promise<readonly string[]>;

const NO_RECORDS = new Set(["ENODATA", "ENOTFOUND"]);

/**
 * A resolver asking DNS servers directly (c-ares): the given ones (WEBHOOK_DNS_SERVERS, `ip` or
 * `ip:port`: a filtering resolver, or a test's own DNS server), or with none given the servers
 * the system is configured with (/etc/resolv.conf). A name with neither A nor AAAA records fails
 * like ENOTFOUND.
 *
 * Not getaddrinfo (`dns.lookup`): that runs on libuv's four-thread pool with no timeout, so a
 * key holder whose DNS zone stops answering could hold every thread for the system resolver's
 * timeout with test sends, and every other lookup of the process (other customers' deliveries,
 * MongoDB, SMTP, the model provider) and file and zlib work would queue behind it. c-ares queries
 * run on the event loop, each bounded here to 2 tries of 2 s. The cost: /etc/hosts does not name
 * webhook hosts (a webhook URL is a public name; tests use their own DNS server).
 */
export function dnsServerResolve(servers: readonly string[] | null): ResolveAll {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (servers !== null) resolver.setServers([...servers]);
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

/** The system's DNS servers, asked directly (see dnsServerResolve). */
export const systemDnsResolve: ResolveAll = dnsServerResolve(null);

/** The resolver webhooks use, chosen from configuration. */
export function webhookResolver(servers: readonly string[] | undefined): ResolveAll {
  return servers === undefined || servers.length === 0 ? systemDnsResolve : dnsServerResolve(servers);
}
