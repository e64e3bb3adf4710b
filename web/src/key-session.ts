import type { Tier } from "../../sdk/types.js";

type Listener = () => void;

/**
 * The visitor's API key, held in this module's memory only: never written to storage, cookies
 * or the URL, so it is gone on reload and cannot leak through a shared link or a served asset.
 */
export class KeySession {
  private current: string | null = null;
  private readonly listeners = new Set<Listener>();

  get key(): string | null {
    return this.current;
  }

  /** The tier named in the key's prefix; null when unknown, and then the service decides. */
  get tier(): Tier | null {
    const match = /^svc_(free|basic|pro)_/.exec(this.current ?? "");
    return match ? (match[1] as Tier) : null;
  }

  set(key: string | null): void {
    const next = key && key.trim() !== "" ? key.trim() : null;
    if (next === this.current) return;
    this.current = next;
    for (const listener of this.listeners) listener();
  }

  onChange(listener: Listener): void {
    this.listeners.add(listener);
  }
}

const RANK: Record<Tier, number> = { free: 0, basic: 1, pro: 2 };

export function tierAllows(have: Tier, need: Tier): boolean {
  return RANK[have] >= RANK[need];
}

export function tierName(tier: Tier): string {
  return tier === "free" ? "Free" : tier === "basic" ? "Basic" : "Pro";
}
