/** Where a CLI command writes: injected so commands are testable in-process. */
export interface CliIo {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
}

export type CliCommand = (args: string[], io: CliIo) => Promise<number>;
