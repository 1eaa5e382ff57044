// Spades' tricks add up to 13: once three players' are chosen, the fourth is filled in, and it follows
// every change of the others until the scorekeeper picks it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { countOf, fillFor } from "../../static/table/sums.js";

const TRICKS = Array.from({ length: 14 }, (_, at) => at);

// Seats as the page has them: a number picked by the scorekeeper, a number the page filled in ("2*"),
// or nothing (null).
function seats(...values) {
  return values.map((value) => {
    const filled = typeof value === "string";
    return { value: value === null ? null : parseInt(value, 10), filled, options: TRICKS };
  });
}

test("three players' tricks chosen: the fourth is what is left of 13", () => {
  assert.deepEqual(fillFor(seats(5, 3, 3, null), 13), { index: 3, value: 2 });
  assert.deepEqual(fillFor(seats(null, 0, 13, 0), 13), { index: 0, value: 0 });
});

test("fewer than three chosen: nothing is filled in", () => {
  assert.equal(fillFor(seats(5, 3, null, null), 13), null);
  assert.equal(fillFor(seats(null, null, null, null), 13), null);
});

test("a change after the fill moves the filled-in seat with it", () => {
  // N 5, E 3, S 3: W is filled with 2. Then S becomes 4: W follows to 1, never "14 of 13".
  assert.deepEqual(fillFor(seats(5, 3, 4, "2"), 13), { index: 3, value: 1 });
  // Back down: W follows up again.
  assert.deepEqual(fillFor(seats(5, 3, 2, "1"), 13), { index: 3, value: 3 });
});

test("each step of an arrow key is a change the filled-in seat follows", () => {
  const table = seats(5, 3, 3, "2");
  const west = [];
  for (const south of [4, 5, 6, 5]) {
    table[2].value = south;
    const change = fillFor(table, 13);
    table[3].value = change.value;
    west.push(change.value);
  }
  // S 4, 5: W 1, 0; S 6 makes 14 without W: W is cleared; S back to 5: W is 0 again.
  assert.deepEqual(west, [1, 0, null, 0]);
});

test("the filled-in seat already right: nothing changes", () => {
  assert.equal(fillFor(seats(5, 3, 3, "2"), 13), null);
});

test("once the scorekeeper picks the filled-in seat, it is theirs: nothing is filled in any more", () => {
  assert.equal(fillFor(seats(5, 3, 4, 2), 13), null);
});

test("no number fits (the others make more than 13): the filled-in seat is cleared, not left wrong", () => {
  assert.deepEqual(fillFor(seats(9, 3, 4, "0"), 13), { index: 3, value: null });
  assert.equal(fillFor(seats(9, 3, 4, null), 13), null);
});

test("the count says how far the chosen tricks are from 13", () => {
  assert.deepEqual(countOf([5, 3, null, null], 13), { words: "8 of 13", state: "under" });
  assert.deepEqual(countOf([5, 3, 3, 2], 13), { words: "13 of 13", state: "ok" });
  assert.deepEqual(countOf([5, 3, 4, 2], 13), { words: "14 of 13 — too many", state: "over" });
  assert.deepEqual(countOf([5, 3, 3, 1], 13), { words: "12 of 13 — too few", state: "under" });
});
