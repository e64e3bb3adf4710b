import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { btcVerdictSchema } from "../../../src/http/schemas/judiciary.js";
import { solCouncilResponseSchema, taoCouncilRunSchema } from "../../../src/http/schemas/council.js";

/** The percentage a template explanation states, e.g. 50 in "rules HOLD with 50% confidence". */
function statedPercent(explanation: string | null | undefined): number | null {
  const m = /with (\d+)% confidence/.exec(explanation ?? "");
  return m === null ? null : Number(m[1]);
}

/**
 * SPEC's council explanation is a plain-English summary published beside the council's
 * confidence. The template wrote the Chief Judge's figure before calibration replaced it, so
 * /v1/verdict/latest read "ACCUMULATE with 35% confidence" next to council_confidence 0.5031.
 */
describe("a template explanation states the confidence published beside it", () => {
  let svc: RunningService;
  let pro: string;

  beforeAll(async () => {
    svc = await startService({ REPLAY_WARMUP_DAYS: "2" });
    pro = await createKey(svc, "pro");
  }, 180_000);
  afterAll(() => svc.stop());

  const get = async (path: string, method = "GET") => {
    const res = await fetch(`${svc.url}${path}`, { method, headers: { "x-api-key": pro } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as unknown;
  };

  it("on the BTC verdict", async () => {
    const v = btcVerdictSchema.parse(await get("/v1/verdict/latest"));
    expect(v.council_explanation_source).toBe("template");
    expect(statedPercent(v.council_explanation)).toBe(Math.round((v.council_confidence ?? Number.NaN) * 100));
  });

  it("names the agent most convinced by its own figure, which is the raw confidence published with its vote", async () => {
    const v = btcVerdictSchema.parse(await get("/v1/verdict/latest"));
    const named = /with ([A-Z_ ]+) the most convinced by its own figure \(([A-Z_]+) at (\d+)%\)/.exec(v.council_explanation ?? "");
    expect(named, v.council_explanation ?? "").not.toBeNull();
    const [, agent, ruling, percent] = named ?? [];
    const vote = v.agents?.find((a) => a.name === agent);
    expect(vote?.vote).toBe(ruling);
    expect(Number(percent)).toBe(Math.round((vote?.raw_confidence ?? Number.NaN) * 100));
    const strongest = Math.max(...(v.agents ?? []).filter((a) => a.confidence_basis.kind !== "abstained").map((a) => a.raw_confidence));
    expect(vote?.raw_confidence).toBe(strongest);
  });

  it("on the SOL and TAO verdicts", async () => {
    const sol = solCouncilResponseSchema.parse(await get("/v1/sol/council")).verdict;
    const tao = taoCouncilRunSchema.parse(await get("/v1/tao/council")).verdict;
    for (const verdict of [sol, tao]) {
      expect(verdict?.explanationSource).toBe("template");
      expect(statedPercent(verdict?.plainExplanation)).toBe(Math.round((verdict?.confidence ?? Number.NaN) * 100));
    }
  });
});
