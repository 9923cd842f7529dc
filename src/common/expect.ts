/**
 * `value`, or an error naming what was expected: for a value the code has already proven present
 * (an index in range, a key just set, a match group the pattern requires) that the type system
 * cannot see. It replaces a non-null assertion (`!`), which would let `undefined` run on and fail
 * later with a message that names nothing; reaching this throw is a bug, never bad input.
 */
export function expectDefined<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, found ${value}`);
  return value;
}
