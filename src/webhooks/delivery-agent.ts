import type { Agent } from "node:https";
import type { LookupFunction } from "node:net";
import { RequestFilteringHttpsAgent } from "request-filtering-agent";

/** Metadata endpoints stay refused even when private targets are allowed for tests. */
const ALWAYS_DENIED = ["169.254.169.254", "fd00:ec2::254", "100.100.100.200"];

export interface DeliveryAgentOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: only ever true in tests. */
  readonly allowPrivateTargets: boolean;
  /** Tests only: the CA of the test receiver; it replaces the default roots for this agent. */
  readonly ca?: string | Buffer;
  /** Tests only: a resolver standing in for DNS (the agent still checks what it returns). */
  readonly lookup?: LookupFunction;
  readonly maxSockets?: number;
}

/**
 * The only agent deliveries use. request-filtering-agent checks the address of every new
 * connection after DNS resolution and connects to exactly that address, so a name that
 * re-resolves to a private address is refused at delivery, not just at registration.
 * Keep-alive reuses sockets only to addresses that already passed the check.
 */
export function createDeliveryAgent(options: DeliveryAgentOptions): Agent {
  return new RequestFilteringHttpsAgent({
    keepAlive: true,
    maxSockets: options.maxSockets ?? 64,
    allowPrivateIPAddress: options.allowPrivateTargets,
    allowMetaIPAddress: false,
    denyIPAddressList: ALWAYS_DENIED,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
  });
}
