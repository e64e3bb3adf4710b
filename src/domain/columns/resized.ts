/**
 * A copy of `array` with room for `capacity` (at least its length) entries: its values first,
 * zeros after. The typed column stores (price paths, graded rows, calibrator windows, the replay
 * memo) grow with this.
 */
export function resized(array: Float64Array, capacity: number): Float64Array<ArrayBuffer>;
export function resized(array: Uint8Array, capacity: number): Uint8Array<ArrayBuffer>;
export function resized(array: Float64Array | Uint8Array, capacity: number): Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer> {
  const next = array instanceof Float64Array ? new Float64Array(capacity) : new Uint8Array(capacity);
  next.set(array);
  return next;
}
