// The small decisions of the table page that need no page: dealers, retries, what the lines say.
import assert from "node:assert/strict";
import { test } from "node:test";

import { dealerAfter } from "../../static/table/facts.js";
import { recordedWords } from "../../static/table/status.js";
import { nextRetryDelay, recordedOf } from "../../static/table/sync.js";
import { cardState, refusalMessages, reviewWords } from "../../static/table/waiting.js";

test("the hands kept on the phone are dealt in turn after the server's next dealer", () => {
  const facts = { seats: ["N", "E", "S", "W"], nextDealer: "S" };
  assert.deepEqual([0, 1, 2, 3, 4].map((ahead) => dealerAfter(facts, ahead)), ["S", "W", "N", "E", "S"]);
});

test("a send with no answer is tried again after 2 s, then twice as long, at most every 30 s", () => {
  const delays = [];
  let delay = 0;
  for (let tries = 0; tries < 6; tries += 1) {
    delay = nextRetryDelay(delay);
    delays.push(delay);
  }
  assert.deepEqual(delays, [2000, 4000, 8000, 16000, 30000, 30000]);
});

test("the hands recorded for this game are shown once, whoever sent them", () => {
  const item = (game, key) => ({ entry: { game, key }, answer: { number: 1 } });
  const summary = { recorded: [item(7, "a"), item(8, "b")] };
  assert.deepEqual(recordedOf(7, summary, [item(7, "a"), item(7, "c")]).map((one) => one.entry.key), ["a", "c"]);
});

test("the confirmation names the sides in the scoreboard's order, with a real minus sign", () => {
  const answer = { number: 6, game: { delta: { EW: -50, NS: 72 } } };
  assert.equal(recordedWords(answer, ["NS", "EW"]), "✓ Hand 6 recorded: NS +72, EW −50.");
  assert.equal(recordedWords({ number: 2 }, ["NS", "EW"]), "✓ Hand 2 recorded.");
});

test("a kept hand is waiting, needs review, or was refused; a sign-in wait reads as waiting", () => {
  assert.deepEqual(["waiting", "signin", "review", "refused"].map((state) => cardState({ state })),
                   ["waiting", "waiting", "review", "refused"]);
});

test("the review card says what the server has and what the scorekeeper may do", () => {
  assert.equal(reviewWords({ hand_count: 3, totals: { NS: 120, EW: 80 } }),
               "Another phone recorded hand 3 first. The game as the server has it: 3 hands, NS 120, EW 80. " +
               "Send this entry as the next hand, or drop it if it is the same hand.");
});

test("a refused card gives every reason, or says the server refused it", () => {
  assert.deepEqual(refusalMessages({ non_field_errors: ["Game over."], groups: { tricks: ["14 of 13."] },
                                     errors: { bid_N: ["Too high."] } }),
                   ["Game over.", "14 of 13.", "Too high."]);
  assert.deepEqual(refusalMessages({}), ["The server refused this hand."]);
});
