/**
 * What other capabilities do when a key lineage ends (webhooks stop). Rotation needs no listener:
 * quotas and webhooks belong to the lineage (the key's usage id), which a rotation continues.
 */
export interface KeyLifecycleListener {
  /** The lineage's active key was deactivated: it has none left. */
  deactivated(usageId: string): Promise<void>;
}

/**
 * The key routes announce deactivations here; capabilities listen. Per service, not per
 * process, and it holds listeners only: nothing another replica must agree with. (The CLI's
 * `keys deactivate` has no listeners: the webhook actors check the lineage before every send,
 * which covers it.)
 */
export class KeyLifecycle {
  private readonly listeners: KeyLifecycleListener[] = [];

  listen(listener: KeyLifecycleListener): void {
    this.listeners.push(listener);
  }

  async deactivated(usageId: string): Promise<void> {
    for (const l of this.listeners) await l.deactivated(usageId);
  }
}
