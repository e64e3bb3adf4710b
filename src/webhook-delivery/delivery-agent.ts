import { Agent, type AgentOptions } from "node:https";
import { isIP, Socket, type LookupFunction, type TcpNetConnectOpts } from "node:net";
import type { Duplex } from "node:stream";
import { judgeAddress, type AddressPolicyOptions } from "./address-policy.js";
import { systemDnsResolve, type ResolveAll } from "./resolver.js";

/** What the agent throws when the policy refuses an address; classifyDeliveryError knows it. */
export class TargetRefusedError extends Error {
  readonly code = "ERR_WEBHOOK_TARGET_REFUSED";
}

export interface DeliveryAgentOptions extends AddressPolicyOptions {
  /** Tests only: the CA of the test receiver; it replaces the default roots for this agent. */
  readonly ca?: string | Buffer;
  /** The resolver registration uses too (WEBHOOK_DNS_SERVERS or the system's). */
  readonly resolve?: ResolveAll;
  readonly maxSockets?: number;
}

type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * A lookup that resolves every address of the name, refuses the connection if the policy
 * refuses any of them, and hands net.connect exactly the addresses it checked: a name that
 * re-resolves to a private address (DNS rebinding) is refused at delivery, not only at
 * registration.
 */
function checkedLookup(resolve: ResolveAll, policy: AddressPolicyOptions): LookupFunction {
  const lookup = (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        for (const address of addresses) {
          const verdict = judgeAddress(address, policy);
          if (!verdict.allowed) return callback(new TargetRefusedError(`webhook target ${hostname} refused: ${verdict.reason}`), "");
        }
        const family = options.family === 6 || options.family === "IPv6" ? 6 : options.family === 4 || options.family === "IPv4" ? 4 : 0;
        const usable = addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => family === 0 || a.family === family);
        const first = usable[0];
        if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no usable address`), { code: "ENOTFOUND" }), "");
        if (options.all === true) return callback(null, usable);
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ""),
    );
  };
  return lookup as unknown as LookupFunction;
}

/**
 * The only agent deliveries use. An IP literal is judged before connecting (net.connect skips
 * the lookup for literals); a name goes through checkedLookup. Keep-alive reuses sockets only
 * to addresses that already passed. Same predicate as registration: judgeAddress.
 */
class PolicyCheckedAgent extends Agent {
  constructor(
    options: AgentOptions,
    private readonly policy: AddressPolicyOptions,
    private readonly lookupChecked: LookupFunction,
  ) {
    super(options);
  }

  override createConnection(options: TcpNetConnectOpts, callback?: (error: Error | null, socket: Duplex) => void): Duplex {
    const host = (options.host ?? "").replace(/^\[|\]$/g, "");
    if (isIP(host) !== 0) {
      const verdict = judgeAddress(host, this.policy);
      if (!verdict.allowed) {
        const socket = new Socket();
        const error = new TargetRefusedError(`webhook target refused: ${verdict.reason}`);
        if (callback === undefined) socket.destroy(error);
        else callback(error, socket);
        return socket;
      }
    }
    // node's https.Agent#createConnection is tls.connect; the typings leave it out.
    const create = Reflect.get(Agent.prototype, "createConnection") as (
      this: Agent,
      o: TcpNetConnectOpts,
      cb?: (error: Error | null, socket: Duplex) => void,
    ) => Duplex;
    return create.call(this, { ...options, lookup: this.lookupChecked }, callback);
  }
}

export function createDeliveryAgent(options: DeliveryAgentOptions): Agent {
  const policy = { allowPrivateTargets: options.allowPrivateTargets };
  return new PolicyCheckedAgent(
    { keepAlive: true, maxSockets: options.maxSockets ?? 64, ...(options.ca === undefined ? {} : { ca: options.ca }) },
    policy,
    checkedLookup(options.resolve ?? systemDnsResolve, policy),
  );
}
