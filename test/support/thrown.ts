/** The BridgeError `fn` throws; anything else thrown propagates, and throwing nothing fails. */
import { BridgeError } from "../../src/errors.ts";

export function thrown(fn: () => unknown): BridgeError {
  try {
    fn();
  } catch (err) {
    if (err instanceof BridgeError) return err;
    throw err;
  }
  throw new Error("expected a BridgeError");
}

/** The BridgeError `p` rejects with; anything else propagates, and resolving fails. */
export async function rejected(p: Promise<unknown>): Promise<BridgeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof BridgeError) return err;
    throw err;
  }
  throw new Error("expected a BridgeError");
}
