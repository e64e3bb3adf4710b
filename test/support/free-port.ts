import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * The lowest port the OS hands out on its own (Linux's ip_local_port_range). A port the OS chose
 * for us (listen on 0) and that we released for a child to take can be handed out again, to any
 * outgoing connection of the other suites running beside us, before the child binds it: CI once
 * lost a Dapr scheduler to "address already in use" that way. Ports below this range are never
 * handed out by the OS, so only another caller choosing the same one at random can take it.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 12_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const LOW = 10_000;
const HIGH = ephemeralLow() - 1;
/** Ports this process handed out already: two suites in one worker never get the same one. */
const handedOut = new Set<number>();

function tryListen(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(null));
    srv.listen(port, "127.0.0.1", () => {
      const addr = srv.address();
      const got = addr !== null && typeof addr !== "string" ? addr.port : null;
      srv.close(() => resolve(got));
    });
  });
}

/** A free TCP port on 127.0.0.1 below the OS's own range, for a child process to listen on. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(port)) continue;
    if ((await tryListen(port)) === port) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found between ${LOW} and ${HIGH}`);
}
