import type { Capability } from "../../src/composition/capability.js";
import { Actor } from "../../src/runtime/actor.js";

export interface WarmUpHold {
  /** Mount it beside the capabilities under test: its first turn, due at once, waits for `release`. */
  readonly capability: Capability;
  /** Lets the warm-up go on (idempotent). */
  readonly release: () => void;
}

/**
 * Holds a replay warm-up at its first step until the test lets go: the fast-forward waits for
 * every due turn, and this actor's first turn waits for `release`. Tests that must act while the
 * service is still warming up use it instead of hoping a fast-forward outlasts their requests.
 */
export function warmUpHold(): WarmUpHold {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  class WarmUpHoldActor extends Actor {
    static readonly actorType = "WarmUpHold";
    async ensureScheduled(): Promise<void> {
      this.ctx.reminders.set("hold", { dueInMs: 0, periodMs: 86_400_000 });
    }
    override async receiveReminder(): Promise<void> {
      await released;
    }
  }
  return {
    capability: {
      name: "warm-up-hold",
      registerActors: (ctx) => ctx.host.register(WarmUpHoldActor, (actor) => new WarmUpHoldActor(actor)),
      start: async (ctx) => ctx.host.proxy(WarmUpHoldActor, "hold").ensureScheduled(),
      routes: () => [],
    },
    release: () => release(),
  };
}
