import { judgeAddress } from "../../../src/webhook-delivery/address-policy.js";

/** True for any address a delivery must not connect to; non-addresses count as forbidden. */
export function isForbiddenAddress(address: string): boolean {
  return !judgeAddress(address).allowed;
}
