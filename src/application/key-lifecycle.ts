/** What other capabilities do when a key is rotated or deactivated (webhooks follow or stop). */
export interface KeyLifecycleListener {
  rotated(fromKeyId: string, toKeyId: string): Promise<void>;
  deactivated(keyId: string): Promise<void>;
}

/**
 * The key routes announce rotations and deactivations here; capabilities listen. Per service,
 * not per process, and it holds listeners only: nothing another replica must agree with.
 * (The CLI's `keys deactivate` has no listeners: the webhook actors check the key before every
 * send, which covers it.)
 */
export class KeyLifecycle {
  private readonly listeners: KeyLifecycleListener[] = [];

  listen(listener: KeyLifecycleListener): void {
    this.listeners.push(listener);
  }

  async rotated(fromKeyId: string, toKeyId: string): Promise<void> {
    for (const l of this.listeners) await l.rotated(fromKeyId, toKeyId);
  }

  async deactivated(keyId: string): Promise<void> {
    for (const l of this.listeners) await l.deactivated(keyId);
  }
}
