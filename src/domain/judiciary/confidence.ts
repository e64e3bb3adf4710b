/**
 * Judiciary confidence in [0, 1] from coverage and agreement:
 *   √coverage × (0.3 + 0.7 × agreement), rounded to 0.01.
 * Coverage enters as a square root so that losing a few signals costs a little and losing most
 * costs a lot (one live signal of 27 gives at most 0.19); disagreement can take away up to 70%.
 * With nothing live there is no basis at all: 0.
 */
export function judiciaryConfidence(coverageRatio: number, agreement: number): number {
  if (coverageRatio <= 0) return 0;
  const c = Math.sqrt(Math.min(1, coverageRatio)) * (0.3 + 0.7 * Math.min(1, Math.max(0, agreement)));
  return Math.round(c * 100) / 100;
}
