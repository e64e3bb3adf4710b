import { describe, expect, it } from "vitest";
import {
  createSubscription,
  isOwnedBy,
  subscriptionLimitReached,
  wantsEvent,
} from "../../../src/domain/webhooks/subscription.js";
import { T0, subscription } from "./fixtures.js";

describe("subscription rules", () => {
  it("allows five subscriptions per key, refuses the sixth", () => {
    expect([0, 4, 5, 6].map(subscriptionLimitReached)).toEqual([false, false, true, true]);
  });

  it("belongs to one key only", () => {
    const sub = subscription();
    expect(isOwnedBy(sub, "key_1")).toBe(true);
    expect(isOwnedBy(sub, "key_2")).toBe(false);
  });

  it("starts active with no failures, and de-duplicates requested events", () => {
    const sub = createSubscription({
      id: "wh_9",
      ownerKeyId: "k",
      url: "https://a.example.com/h",
      events: ["macro.alert", "macro.alert", "ghost.signal"],
      secret: "whsec_x",
      now: T0,
    });
    expect(sub).toMatchObject({ isActive: true, failuresSinceSuccess: 0, lastTriggeredAt: null, createdAt: T0 });
    expect(sub.events).toEqual(["macro.alert", "ghost.signal"]);
    expect(wantsEvent(sub, "ghost.signal")).toBe(true);
    expect(wantsEvent(sub, "verdict.new")).toBe(false);
    expect(wantsEvent(sub, "webhook.test")).toBe(false);
  });
});
