/** The longest run of consecutive true flags: win and loss streaks of a trade sequence. */
export function longestRun(flags: readonly boolean[]): number {
  let best = 0;
  let run = 0;
  for (const f of flags) {
    run = f ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}
