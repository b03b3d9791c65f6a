/**
 * One expectation over many generated cases: `got` must equal `want`, and a failure shows
 * `where` (the text, model, offset... of the case) beside both.
 */
import { expect } from "bun:test";

export function expectAt(where: object, got: unknown, want: unknown): void {
  expect({ ...where, got }).toEqual({ ...where, got: want });
}
