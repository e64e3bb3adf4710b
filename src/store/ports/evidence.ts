/**
 * Published evidence: calibration maps and evaluation reports, one JSON document per key
 * (e.g. `calibration:verdict:BTC`, `evaluation:verdicts:BTC`). Written by the EvidenceActors,
 * read by the verdict and council actors and the evaluation routes, so every replica and every
 * restart uses the same map and serves the same figures.
 */
export interface EvidenceDocument {
  readonly key: string;
  /** Market time the document describes (a map's fit time, an evaluation's horizon end). */
  readonly at: number;
  readonly body: unknown;
}

export interface EvidenceRepository {
  /** Stores the document unless the stored one is newer: a late retry never moves evidence back. */
  put(doc: EvidenceDocument): Promise<void>;
  get(key: string): Promise<EvidenceDocument | null>;
}
