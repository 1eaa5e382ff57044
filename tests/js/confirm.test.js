// A confirmation made on a phone is kept until the server has answered it, and sent once.
import assert from "node:assert/strict";
import { test } from "node:test";

import { confirmationQueue, sendQueued } from "../../static/live/confirm.js";

function memory() {
  const kept = new Map();
  return { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, String(value)) };
}

const HAND_4 = { url: "/games/1/hands/4/check/", action: "confirm", fields: { action: "confirm" }, number: "4" };
const HAND_5 = { url: "/games/1/hands/5/check/", action: "confirm", fields: { action: "confirm" }, number: "5" };

test("a confirmation tapped twice is kept once", () => {
  const queue = confirmationQueue(memory());
  queue.add(HAND_4);
  queue.add(HAND_4);
  assert.deepEqual(queue.items(), [HAND_4]);
});

test("offline, nothing leaves the queue; back online, each is sent once and leaves it", async () => {
  const queue = confirmationQueue(memory());
  queue.add(HAND_4);
  queue.add(HAND_5);
  const sent = [];
  const offline = async () => {
    throw new TypeError("Failed to fetch");
  };
  assert.deepEqual(await sendQueued(queue, offline), []);
  assert.equal(queue.items().length, 2);

  const online = async (item) => {
    sent.push(item.number);
    return 200;
  };
  const answered = await sendQueued(queue, online);
  assert.deepEqual(answered.map((item) => [item.number, item.status]), [["4", 200], ["5", 200]]);
  assert.deepEqual(queue.items(), []);
  await sendQueued(queue, online);
  assert.deepEqual(sent, ["4", "5"]);
});

test("a refusal is an answer: it leaves the queue rather than being sent again and again", async () => {
  const queue = confirmationQueue(memory());
  queue.add(HAND_4);
  const answered = await sendQueued(queue, async () => 403);
  assert.deepEqual(answered.map((item) => item.status), [403]);
  assert.deepEqual(queue.items(), []);
});

test("the network failing half-way keeps the rest for later, in order", async () => {
  const queue = confirmationQueue(memory());
  queue.add(HAND_4);
  queue.add(HAND_5);
  let calls = 0;
  await sendQueued(queue, async () => {
    calls += 1;
    if (calls > 1) {
      throw new TypeError("Failed to fetch");
    }
    return 200;
  });
  assert.deepEqual(queue.items(), [HAND_5]);
});

test("what the phone kept survives a garbled entry", () => {
  const storage = memory();
  storage.setItem("scorekeeper.confirmations", "{not json");
  assert.deepEqual(confirmationQueue(storage).items(), []);
});
