import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { Packet, createUDPServer } from "dns2";

export interface LocalDnsServer {
  /** `127.0.0.1:port`, for WEBHOOK_DNS_SERVERS. */
  readonly server: string;
  /** name → the addresses its A and AAAA records answer; mutable so a test can re-point a name. */
  readonly records: Map<string, readonly string[]>;
  /** Every name asked for, in order (lower case). */
  readonly asked: string[];
  stop(): Promise<void>;
}

/**
 * A real DNS server (UDP, dns2) on loopback, answering A and AAAA queries from `records`
 * and NXDOMAIN for anything else: the service resolves webhook names through it as it would
 * through any resolver, so DNS tests need neither the internet nor /etc/hosts.
 */
export async function startDnsServer(): Promise<LocalDnsServer> {
  const records = new Map<string, readonly string[]>();
  const asked: string[] = [];
  const server = createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (question !== undefined) asked.push(question.name.toLowerCase());
    const addresses = question === undefined ? undefined : records.get(question.name.toLowerCase());
    if (question === undefined || addresses === undefined) {
      response.header.rcode = 3; // NXDOMAIN
    } else {
      const family = question.type === Packet.TYPE.A ? 4 : question.type === Packet.TYPE.AAAA ? 6 : 0;
      for (const address of addresses.filter((a) => isIP(a) === family)) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, address }));
      }
    }
    void send(response);
  });
  await server.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    server: `127.0.0.1:${port}`,
    records,
    asked,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
