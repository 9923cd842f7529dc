/**
 * A batch of input units checked together, with every canonical profile packed into one byte
 * buffer (transferred, not copied, from a worker thread), each profile pointing at its slice.
 */
import { checkUnit, type CheckedProfile, type InputUnit } from "./profile-check";

export interface CheckRequest {
  id: number;
  units: InputUnit[];
}

export interface PackedProfile extends Omit<CheckedProfile, "canonical"> {
  /** Slice of `bodies` holding the profile's RFC 8785 bytes; absent when it has none. */
  body?: { start: number; end: number };
}

export interface BatchResult {
  profiles: PackedProfile[];
  bodies: Uint8Array;
  /** Input bytes the batch covered, for progress. */
  inputBytes: number;
}

export function checkBatch(units: InputUnit[]): BatchResult {
  const checked = units.flatMap(checkUnit);
  let size = 0;
  for (const profile of checked) if (profile.canonical !== undefined) size += Buffer.byteLength(profile.canonical);
  const bodies = Buffer.allocUnsafeSlow(size);
  const profiles: PackedProfile[] = [];
  let at = 0;
  for (const { canonical, ...profile } of checked) {
    if (canonical === undefined) {
      profiles.push(profile);
      continue;
    }
    const end = at + bodies.write(canonical, at);
    profiles.push({ ...profile, body: { start: at, end } });
    at = end;
  }
  return { profiles, bodies: new Uint8Array(bodies.buffer, 0, size), inputBytes: units.reduce((n, u) => n + unitBytes(u), 0) };
}

export function unitBytes(unit: InputUnit): number {
  return unit.kind === "lines" ? unit.bytes.byteLength : unit.kind === "document" ? unit.text.length : 0;
}
