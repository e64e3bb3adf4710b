/**
 * Hands out event timestamps that never repeat within one event type (DECISIONS 7): a second
 * event in the same millisecond, or one whose clock went backwards, gets the last stamp + 1 ms,
 * so subscribers may de-duplicate on event plus timestamp.
 */
export class EventStamps {
  private readonly last = new Map<string, number>();

  next(event: string, at: number): number {
    const previous = this.last.get(event);
    const stamp = previous !== undefined && at <= previous ? previous + 1 : at;
    this.last.set(event, stamp);
    return stamp;
  }
}
