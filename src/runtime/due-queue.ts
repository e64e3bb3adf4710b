/**
 * Keys ordered by due time (a binary min-heap). Rescheduling or cancelling a key leaves its old
 * heap entry behind and bumps the key's generation, so stale entries are skipped when they
 * surface: O(log n) per change with no search, which keeps 10,000 reminders cheap.
 */
export class DueQueue<K> {
  private heap: Array<{ dueAt: number; key: K; gen: number }> = [];
  private readonly live = new Map<K, { dueAt: number; gen: number }>();
  private nextGen = 0;

  get size(): number {
    return this.live.size;
  }

  has(key: K): boolean {
    return this.live.has(key);
  }

  schedule(key: K, dueAt: number): void {
    const gen = this.nextGen++;
    this.live.set(key, { dueAt, gen });
    this.push({ dueAt, key, gen });
    // Stale entries pile up when keys are rescheduled often; rebuild once they dominate.
    if (this.heap.length > 64 && this.heap.length > 4 * this.live.size) this.rebuild();
  }

  cancel(key: K): void {
    this.live.delete(key);
  }

  /** The earliest live due time, or undefined when nothing is scheduled. */
  peek(): number | undefined {
    this.dropStale();
    return this.heap[0]?.dueAt;
  }

  /** Removes and returns every key due at or before `now`, earliest first. */
  takeDue(now: number): Array<{ key: K; dueAt: number }> {
    const due: Array<{ key: K; dueAt: number }> = [];
    for (;;) {
      this.dropStale();
      const top = this.heap[0];
      if (!top || top.dueAt > now) return due;
      this.pop();
      this.live.delete(top.key);
      due.push({ key: top.key, dueAt: top.dueAt });
    }
  }

  private dropStale(): void {
    for (;;) {
      const top = this.heap[0];
      if (!top || this.live.get(top.key)?.gen === top.gen) return;
      this.pop();
    }
  }

  private rebuild(): void {
    this.heap = [...this.live].map(([key, { dueAt, gen }]) => ({ dueAt, key, gen }));
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private push(entry: { dueAt: number; key: K; gen: number }): void {
    this.heap.push(entry);
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private pop(): void {
    const last = this.heap.pop();
    if (last === undefined || this.heap.length === 0) return;
    this.heap[0] = last;
    this.down(0);
  }

  private down(start: number): void {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.heap.length && this.less(left, smallest)) smallest = left;
      if (right < this.heap.length && this.less(right, smallest)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  /** Ties break by scheduling order, so reminders due together fire in the order they were set. */
  private less(a: number, b: number): boolean {
    const x = this.heap[a];
    const y = this.heap[b];
    if (!x || !y) return false;
    return x.dueAt < y.dueAt || (x.dueAt === y.dueAt && x.gen < y.gen);
  }

  private swap(a: number, b: number): void {
    const x = this.heap[a];
    const y = this.heap[b];
    if (!x || !y) return;
    this.heap[a] = y;
    this.heap[b] = x;
  }
}
