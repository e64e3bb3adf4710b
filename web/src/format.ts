const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 2 });

export function money(value: number | null | undefined): string {
  return typeof value === "number" && Number.isFinite(value) ? usd.format(value) : "—";
}

/** A 0..1 fraction as a percentage. */
export function pct01(value: number | null | undefined): string {
  return typeof value === "number" && Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "—";
}

/** A value that is already a percentage (0..100). */
export function pct(value: number | null | undefined): string {
  return typeof value === "number" && Number.isFinite(value) ? `${value.toFixed(1)}%` : "—";
}

export function num(value: number | null | undefined, digits = 2): string {
  return typeof value === "number" && Number.isFinite(value) ? value.toLocaleString("en-US", { maximumFractionDigits: digits }) : "—";
}

/**
 * A figure over `count` items: "—" when there are none, where "0.0%" or "$0.00" would read as a
 * result (a win rate of nought, every call wrong) rather than as nothing to measure yet.
 */
export function over(count: number, text: string): string {
  return count === 0 ? "—" : text;
}

/** A date-only value (`since` of the stats routes) stays a date: no invented 00:00. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  if (DATE_ONLY.test(iso)) return iso;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Unix seconds for chart axes; candle `t` may come in seconds or milliseconds. */
export function toUnixSeconds(value: number | string): number {
  if (typeof value === "string") return Math.floor(Date.parse(value) / 1000);
  return value > 1e11 ? Math.floor(value / 1000) : value;
}

/** Rulings as words people read, with the raw code kept for screen readers and CSS. */
export function label(code: string | null | undefined): string {
  return code ? code.replace(/_/g, " ") : "—";
}

/** A CSS modifier naming the direction of a ruling, so colour is never the only cue. */
export function tone(code: string | null | undefined): "bull" | "bear" | "neutral" {
  if (!code) return "neutral";
  if (/STRONG_BUY|^BUY|ACCUMULATE|BULL|RISK_ON|WIN|LIVE|CLEAR|true/.test(code)) return "bull";
  if (/SELL|REDUCE|AVOID|BEAR|DISTRIBUTION|LOSS|DEAD|BLACKOUT|false/.test(code)) return "bear";
  return "neutral";
}
