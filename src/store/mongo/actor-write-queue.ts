/**
 * Runs writes to one actor document one after another. FerretDB does not make concurrent updates
 * of one document atomic (DECISIONS 6), and the dispatcher's acknowledgements touch the same
 * document as the actor's turns; serialising them here keeps every write whole.
 */
export class ActorWriteQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(docId: string, write: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(docId) ?? Promise.resolve();
    const next = previous.then(write, write);
    const tail = next.catch(() => undefined);
    this.tails.set(docId, tail);
    void tail.then(() => {
      if (this.tails.get(docId) === tail) this.tails.delete(docId);
    });
    return next;
  }
}
