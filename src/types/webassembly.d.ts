/**
 * The slice of the WebAssembly JS API the HMM forward kernel uses (src/domain/regime/wasm).
 * Node has had it since v8, but neither @types/node 20 nor lib ES2023 declares it, and the DOM
 * lib that does would bring browser globals into every file.
 */
declare global {
  namespace WebAssembly {
    class Module {
      constructor(bytes: Uint8Array);
    }
    class Memory {
      constructor(descriptor: { initial: number; maximum?: number });
      readonly buffer: ArrayBuffer;
    }
    class Instance {
      constructor(module: Module, imports: Record<string, Record<string, Memory | ((...args: number[]) => number)>>);
      readonly exports: Record<string, unknown>;
    }
  }
}

export {};
