import { z } from "zod";
import { TAO_RULINGS, type TaoRuling } from "../domain/market/vocabulary.js";
import { repeatsItself } from "./text-checks.js";

/** "Strong buy", "strong-buy", "STRONG_BUY" are one ruling: repair spelling, not meaning. */
function normaliseRuling(v: unknown): unknown {
  return typeof v === "string" ? v.trim().toUpperCase().replace(/[\s-]+/g, "_") : v;
}

/**
 * A confidence of 72 means 72%: models mix scales. Strings of numbers are read as numbers, and one
 * with a "%" sign on its own scale. Between
 * 1 and 2 the scale is a guess (1.5 a slip of a 0..1 figure, or 1.5%?), and a guess could cost a
 * veto its force, so such a value stays out of range and the reply goes back for repair.
 */
function normaliseConfidence(v: unknown): unknown {
  // A figure written with "%" says its scale: "0.9%" is 0.009, never 90 %.
  if (typeof v === "string" && /^\s*[0-9.]+\s*%\s*$/.test(v)) return Number(v.replace("%", "").trim()) / 100;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : v;
  return typeof n === "number" && n >= 2 && n <= 100 ? n / 100 : n;
}

/**
 * Length caps are part of the JSON Schema sent with the question: a server that enforces it must
 * close the string within them, which is what stops a small model repeating itself until the
 * token limit (measured with SmolLM2: 600-token loops of 40-60 s per call before these caps).
 * One to three sentences fit in 500 characters.
 */
export const THESIS_MAX_CHARS = 500;
export const RATIONALE_MAX_CHARS = 800;
export const EXPLANATION_MAX_CHARS = 500;

/**
 * Two words of two letters or more. A schema-enforced reply from a small model can be valid JSON
 * with a thesis of "][", "1.000000", "LIVE" or "BUY" (SmolLM2-135M, 2026-12-04): a trader
 * reading `agents[].thesis` would take it for the agent's reasoning. Two words is the least that
 * can give a reason ("Funding squeeze."); one word at most restates a label or the ruling.
 */
function hasWords(text: string): boolean {
  return (text.match(/\p{L}{2,}/gu) ?? []).length >= 2;
}

/**
 * Prose the service publishes must be words and must not go round in a loop ("The market is
 * bullish. The market is bearish. The market is bullish. …", cut at its cap). Such a reply fails
 * validation; a looping one gets no repair round (structured-chat.ts), and the agent votes by rule.
 */
function prose(field: string, s: z.ZodString) {
  return s
    .refine(hasWords, `${field} must give a reason in words (two or more), not a label, figures or punctuation`)
    .refine((t) => !repeatsItself(t), `${field} must not repeat itself in a loop`);
}

/** The agent's answer. `reasoning` is accepted for `thesis`, the one rename models often make. */
export function agentReplySchema(allowed: readonly TaoRuling[]) {
  return z.preprocess(
    (raw) => {
      if (raw === null || typeof raw !== "object") return raw;
      const o = raw as Record<string, unknown>;
      return o.thesis === undefined && typeof o.reasoning === "string" ? { ...o, thesis: o.reasoning } : o;
    },
    z.object({
      ruling: z.preprocess(normaliseRuling, z.enum(allowed as [TaoRuling, ...TaoRuling[]])),
      confidence: z.preprocess(normaliseConfidence, z.number().min(0).max(1)),
      thesis: prose("thesis", z.string().trim().min(1).max(THESIS_MAX_CHARS)),
    }),
  );
}

/** Sentences in a plain-text answer: terminal punctuation followed by a space or the end. */
export function sentenceCount(text: string): number {
  return (text.trim().match(/[.!?](?=\s|$)/g) ?? []).length;
}

/** A ruling's words as a pattern matching any spelling ("STRONG_BUY", "strong buy", "Strong-Buy"). */
const spelled = (ruling: TaoRuling): string => ruling.split("_").join("[\\s_-]+");

/**
 * Does `text` name `ruling` in any spelling ("STRONG_BUY", "strong buy", "Strong-Buy")? The ruling
 * is computed in code; an explanation that never states it can say anything (a review had a
 * session vetoed to AVOID explained as "Strong buy: load up now"). A stronger ruling that ends in
 * this one's words does not count as naming it: "Strong buy" does not state a BUY.
 */
export function namesRuling(text: string, ruling: TaoRuling): boolean {
  const stronger = TAO_RULINGS.filter((r) => r !== ruling && r.endsWith(`_${ruling}`));
  const rest = stronger.reduce((t, r) => t.replace(new RegExp(`(^|[^a-z])${spelled(r)}(?=[^a-z]|$)`, "gi"), "$1 "), text);
  return new RegExp(`(^|[^a-z])${spelled(ruling)}([^a-z]|$)`, "i").test(rest);
}

/**
 * A figure stated as the council's confidence or chance ("90% confidence", "confidence of
 * 0.9", "a 70% chance"): the service publishes its own, calibrated on past outcomes, so a figure
 * in the model's words would contradict it beside it. Market figures ("BTC fell 5%") are fine.
 */
const FIGURE = String.raw`(?:\d{1,3}(?:\.\d+)?\s*%|\b0?\.\d+\b)`;
const CONVICTION = String.raw`(?:confidence|confident|certainty|certain|probability|chance|likelihood|odds)`;
const STATED_CONFIDENCE = new RegExp(String.raw`${FIGURE}\s*(?:of\s+)?${CONVICTION}|${CONVICTION}\b[^.!?\n]{0,25}?${FIGURE}`, "i");

export function statesConfidence(text: string): boolean {
  return STATED_CONFIDENCE.test(text);
}

const NO_CONFIDENCE_FIGURE = "must not state a confidence or probability figure: the service publishes its own, calibrated";

/**
 * The Chief Judge's answer about a session ruled `ruling`. SPEC asks for a 2-3 sentence
 * explanation; one to four is accepted (a model's abbreviation or a trailing remark should not
 * cost a repair call), more is rejected, as is an explanation that does not state the ruling.
 */
export function chiefReplySchema(ruling: TaoRuling) {
  return z.object({
    rationale: prose("rationale", z.string().trim().min(1).max(RATIONALE_MAX_CHARS))
      .refine((t) => !statesConfidence(t), `rationale ${NO_CONFIDENCE_FIGURE}`),
    explanation: prose("explanation", z.string().trim().min(1).max(EXPLANATION_MAX_CHARS))
      .refine((t) => sentenceCount(t) <= 4, "explanation must be two or three sentences")
      .refine((t) => namesRuling(t, ruling), `explanation must state the council's ruling, ${ruling}`)
      .refine((t) => !statesConfidence(t), `explanation ${NO_CONFIDENCE_FIGURE}`),
  });
}
