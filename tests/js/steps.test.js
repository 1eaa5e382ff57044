// The steps of an entry (Spades: bids, then tricks), as the page decides them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { nextLabel, stepToShow, summaryLine } from "../../static/table/steps.js";

const bids = (complete) => ({ name: "bids", next: "Tricks", complete });
const tricks = (complete) => ({ name: "tricks", complete });

test("a new entry opens at the first step not yet complete", () => {
  assert.equal(stepToShow([bids(false), tricks(false)], null), 0);
  assert.equal(stepToShow([bids(true), tricks(false)], null), 1);
});

test("an entry with every step complete opens at the last (Record is there)", () => {
  assert.equal(stepToShow([bids(true), tricks(true)], null), 1);
});

test("a step asked for (Change, Back, a draft's step) is shown even when an earlier one is open", () => {
  assert.equal(stepToShow([bids(true), tricks(false)], "bids"), 0);
  assert.equal(stepToShow([bids(false), tricks(false)], "tricks"), 1);
});

test("a step the entry does not have is not asked for", () => {
  assert.equal(stepToShow([bids(true), tricks(false)], "melds"), 1);
});

test("the button after a step names the next one, as the step says it", () => {
  assert.equal(nextLabel([bids(false), tricks(false)], 0), "Next: Tricks");
  assert.equal(nextLabel([{ name: "bids", complete: true }, tricks(false)], 0), "Next: tricks");
  assert.equal(nextLabel([bids(true), tricks(false)], 1), "");
});

test("a finished step reads as one short line of seats and choices, leaving out what was not chosen", () => {
  const line = summaryLine([["N · Ann bid", "3"], ["E · Ben bid", "Nil"], ["S · Cat bid", ""], ["W · Dan bid", "4"]]);
  assert.equal(line, "N 3 · E Nil · W 4");
});
