import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import type { ActorStateStore } from "../../../src/store/ports/actor-state.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { makeHost, type Harness } from "../../unit/runtime/fixtures/harness.js";
import { CounterActor } from "../../unit/runtime/fixtures/sample-actors.js";

/**
 * MongoDB can apply a write and still fail it for the caller (the connection lost before the
 * reply, a retry that cannot select a server in time); the driver then throws, and the host
 * cannot tell whether the turn landed. A store that lands the commit and then throws stands in
 * for that moment, over the real store beneath it.
 */
function landsThenThrows(inner: ActorStateStore): ActorStateStore & { failNext: boolean } {
  const wrapped = Object.create(inner) as ActorStateStore & { failNext: boolean };
  wrapped.failNext = false;
  wrapped.commit = async (change) => {
    await inner.commit(change);
    if (wrapped.failNext) {
      wrapped.failNext = false;
      throw new Error("connection lost before the server's reply");
    }
  };
  return wrapped;
}

describe.each<StoreKind>(["sqlite", "mongodb"])("local host: a turn whose commit landed but failed for the caller, on %s", (kind) => {
  let store: Store | undefined;
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.host.shutdown();
    await store?.close();
  });

  it("loses no update: the next turn reads the actor afresh instead of acting on what it held before", async () => {
    store = await openStore(freshStoreUrl(kind, "landed_commit"));
    const actorState = landsThenThrows(store.actorState);
    h = makeHost(store, { store: actorState });
    await h.host.start();
    const counter = h.host.proxy(CounterActor, "c");
    expect(await counter.add(1)).toBe(1);
    actorState.failNext = true;
    // The caller sees the failure; the store holds n = 2 all the same.
    await expect(counter.add(1)).rejects.toThrow("connection lost");
    // Acting on the view it held (n = 1), the next turn wrote 2 over the landed 2: an add lost.
    expect(await counter.add(1)).toBe(3);
    expect(await counter.value()).toBe(3);
    expect(h.log.lines.some((l) => l.msg === "turn commit failed: activation forgotten, the next turn reads the actor afresh")).toBe(true);
    expect(h.host.activeCount).toBe(1);
  });
});
