/** The `current` pointer's transitions (pure): what publish and rollback write, and what stays kept. */
import { describe, expect, it } from "vitest";
import { KEPT_PREVIOUS_RELEASES } from "../../src/common/catalog/manifest";
import { pointerMakingCurrent, pointerRollingBackTo, RollbackRefused } from "../../src/node/catalog/release-pointer";

const id = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

describe("pointerMakingCurrent", () => {
  it("starts with no previous release", () => {
    expect(pointerMakingCurrent(null, id(1))).toEqual({ release_id: id(1), previous: [] });
  });

  it(`keeps the last ${KEPT_PREVIOUS_RELEASES} releases, newest first`, () => {
    let pointer = pointerMakingCurrent(null, id(1));
    for (let n = 2; n <= 9; n++) pointer = pointerMakingCurrent(pointer, id(n));
    expect(pointer).toEqual({ release_id: id(9), previous: [id(8), id(7), id(6), id(5), id(4)] });
    expect(pointer.previous).toHaveLength(KEPT_PREVIOUS_RELEASES);
  });

  it("re-publishing a kept release moves it to current without listing it twice", () => {
    const pointer = { release_id: id(3), previous: [id(2), id(1)] };
    expect(pointerMakingCurrent(pointer, id(1))).toEqual({ release_id: id(1), previous: [id(3), id(2)] });
  });

  it("making the current release current changes nothing (same object: no write)", () => {
    const pointer = { release_id: id(3), previous: [id(2)] };
    expect(pointerMakingCurrent(pointer, id(3))).toBe(pointer);
  });
});

describe("pointerRollingBackTo", () => {
  const pointer = { release_id: id(3), previous: [id(2), id(1)] };

  it("rolls back to a kept release; the one rolled back from stays kept", () => {
    expect(pointerRollingBackTo(pointer, id(1))).toEqual({ release_id: id(1), previous: [id(3), id(2)] });
  });

  it("refuses a release that is not kept, naming the kept ones", () => {
    expect(() => pointerRollingBackTo(pointer, id(7))).toThrow(RollbackRefused);
    expect(() => pointerRollingBackTo(pointer, id(7))).toThrow(`kept: ${id(2)}, ${id(1)}; current: ${id(3)}`);
  });

  it("refuses on a deployment where nothing was published", () => {
    expect(() => pointerRollingBackTo(null, id(1))).toThrow("nothing is published on this deployment yet");
  });
});
