// The new-game form's seat picker: players tapped in seat order fill North, East, South, West.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { nextSeat, tap } from "../../static/seat-picker.js";

const EMPTY = { N: "", E: "", S: "", W: "" };

describe("tapping players in seat order", () => {
  test("each tap fills the next empty seat, North first", () => {
    let seats = EMPTY;
    for (const player of ["1", "2", "3", "4"]) { seats = tap(seats, player); }
    assert.deepEqual(seats, { N: "1", E: "2", S: "3", W: "4" });
    assert.equal(nextSeat(seats), null);
  });

  test("tapping a seated player frees the seat, and the next tap fills it", () => {
    const full = { N: "1", E: "2", S: "3", W: "4" };
    const freed = tap(full, "2");
    assert.deepEqual(freed, { N: "1", E: "", S: "3", W: "4" });
    assert.equal(nextSeat(freed), "E");
    assert.deepEqual(tap(freed, "9"), { N: "1", E: "9", S: "3", W: "4" });
  });

  test("a fifth player has no seat while all four are taken", () => {
    const full = { N: "1", E: "2", S: "3", W: "4" };
    assert.equal(tap(full, "5"), null);
  });

  test("a seat with a new player's name typed in is skipped", () => {
    assert.deepEqual(tap(EMPTY, "1", ["N"]), { N: "", E: "1", S: "", W: "" });
    assert.equal(nextSeat({ N: "1", E: "2", S: "3", W: "" }, ["W"]), null);
  });

  test("the seats given are left as they were", () => {
    const seats = { ...EMPTY };
    tap(seats, "1");
    assert.deepEqual(seats, EMPTY);
  });
});
