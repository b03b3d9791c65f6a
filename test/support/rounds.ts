/**
 * How many times a test repeats what goes wrong only sometimes (fresh starts, kill points,
 * server lives): a CI run's count, or the larger one of a long run
 * (`THEODOLITE_LONG_TESTS=1`, docs/TESTING.md).
 */
export function rounds(ci: number, long: number): number {
  return process.env.THEODOLITE_LONG_TESTS === "1" ? long : ci;
}
