// The outbox on its own: kept in IndexedDB (fake-indexeddb), sent to a server the test plays.
import "fake-indexeddb/auto";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";

import * as Outbox from "../../static/outbox.js";

const GAME = 7;
let sent;
let answers;

// The server: answers each POST with the next of ``answers`` ({status, body} or "network").
function server() {
  sent = [];
  globalThis.fetch = async (url, init) => {
    sent.push({ url, fields: Object.fromEntries(init.body), csrf: init.headers["X-CSRFToken"] });
    const answer = answers.shift();
    if (answer === undefined || answer === "network") {
      throw new TypeError("Failed to fetch");
    }
    const json = answer.body !== undefined && answer.body !== null;
    return new Response(json ? JSON.stringify(answer.body) : "<p>Forbidden</p>", {
      status: answer.status, headers: { "Content-Type": json ? "application/json" : "text/html" },
    });
  };
}

let seq = 0;
function entry(number, fields = [["bid_N", "3"]], extra = {}) {
  seq += 1;
  return { key: `key-${number}-${seq}`, game: GAME, url: `/games/${GAME}/hands/`, fields, expected_number: number,
           user: "ann", state: "waiting", problem: null, seq, ...extra };
}

function recorded(number) {
  return { status: 201, body: { number, game: { next_dealer: "E", delta: { NS: 50, EW: -10 } } } };
}

beforeEach(async () => {
  server();
  answers = [];
  for (const kept of await Outbox.entries()) {
    await Outbox.remove(kept.key);
  }
  await Outbox.setMeta("user", "ann");
  await Outbox.setMeta("csrf", "kept-token");
});

afterEach(() => {
  delete globalThis.fetch;
});

describe("keeping", () => {
  test("entries come back in the order they were entered, for one game or all", async () => {
    const [first, second, other] = [entry(1), entry(2), entry(1, [], { game: 8 })];
    await Outbox.put(second);
    await Outbox.put(other);
    await Outbox.put(first);
    assert.deepEqual((await Outbox.entries(GAME)).map((kept) => kept.key), [first.key, second.key]);
    assert.deepEqual((await Outbox.entries()).map((kept) => kept.key), [first.key, second.key, other.key]);
    assert.equal((await Outbox.get(first.key)).expected_number, 1);
  });

  test("every change is told to whoever listens", async () => {
    const heard = [];
    Outbox.listen((message) => heard.push(message.type));
    const kept = entry(1);
    await Outbox.put(kept);
    await Outbox.remove(kept.key);
    assert.deepEqual(heard.slice(-2), ["changed", "changed"]);
  });

  test("a new key is a version-4 UUID, also where randomUUID is missing (plain http)", () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    assert.match(Outbox.newKey(), uuid);
    const real = globalThis.crypto.randomUUID;
    globalThis.crypto.randomUUID = undefined;
    try {
      const keys = new Set(Array.from({ length: 20 }, () => Outbox.newKey()));
      keys.forEach((key) => assert.match(key, uuid));
      assert.equal(keys.size, 20);
    } finally {
      globalThis.crypto.randomUUID = real;
    }
  });
});

describe("sending", () => {
  test("hands go in order, each with its own key and number, and leave the phone once recorded", async () => {
    const [first, second] = [entry(1, [["bid_N", "3"], ["idempotency_key", "stale"]]), entry(2)];
    await Outbox.put(first);
    await Outbox.put(second);
    answers = [recorded(1), recorded(2)];
    const heard = [];
    Outbox.listen((message) => message.type === "recorded" && heard.push(message.number));
    const summary = await Outbox.flush({ csrf: "page-token" });
    assert.deepEqual(sent.map((request) => [request.fields.idempotency_key, request.fields.expected_number]),
                     [[first.key, "1"], [second.key, "2"]]);
    assert.equal(sent[0].fields.bid_N, "3");
    assert.equal(sent[0].csrf, "page-token");
    assert.deepEqual(summary.recorded.map((item) => item.answer.number), [1, 2]);
    assert.deepEqual(heard, [1, 2]);
    assert.deepEqual(await Outbox.entries(), []);
  });

  test("without the page's token, the token the page kept is sent (the service worker)", async () => {
    await Outbox.put(entry(1));
    answers = [recorded(1)];
    await Outbox.flush();
    assert.equal(sent[0].csrf, "kept-token");
  });

  test("no answer: the hand stays waiting, the hands after it are not tried, and the phone is offline", async () => {
    await Outbox.put(entry(1));
    await Outbox.put(entry(2));
    answers = ["network"];
    const summary = await Outbox.flush();
    assert.equal(sent.length, 1);
    assert.equal(summary.offline, true);
    assert.deepEqual((await Outbox.entries()).map((kept) => kept.state), ["waiting", "waiting"]);
  });

  test("a server error is tried again later, without calling the phone offline", async () => {
    await Outbox.put(entry(1));
    answers = [{ status: 503, body: null }];
    const summary = await Outbox.flush();
    assert.equal(summary.offline, false);
    assert.equal(summary.stopped[0].state, "waiting");
  });

  test("another phone got there first: the hand needs review, with the game as the server has it", async () => {
    const conflict = { status: 409, body: { code: "hand_conflict", state: { hand_count: 1 } } };
    await Outbox.put(entry(1));
    await Outbox.put(entry(2));
    answers = [conflict];
    const summary = await Outbox.flush();
    const [first, second] = await Outbox.entries();
    assert.equal(first.state, "review");
    assert.deepEqual(first.problem.state, { hand_count: 1 });
    assert.equal(second.state, "waiting");
    assert.deepEqual(summary.stopped.map((kept) => kept.state), ["review"]);
    // Until the scorekeeper decides, the queue stays where it is: nothing more is sent.
    await Outbox.flush();
    assert.equal(sent.length, 1);
  });

  test("a refused hand is kept with the server's reasons", async () => {
    const refusal = { status: 400, body: { code: "invalid_hand", errors: { bid_N: ["Too high."] } } };
    await Outbox.put(entry(1));
    answers = [refusal];
    await Outbox.flush();
    const [kept] = await Outbox.entries();
    assert.equal(kept.state, "refused");
    assert.deepEqual(kept.problem.errors, { bid_N: ["Too high."] });
  });

  test("an ended session or a changed CSRF token waits for a sign-in", async () => {
    await Outbox.put(entry(1, [], { game: 8 }));
    await Outbox.put(entry(1));
    answers = [{ status: 401, body: { code: "not_signed_in" } }, { status: 403, body: null }];
    await Outbox.flush();
    assert.deepEqual((await Outbox.entries()).map((kept) => kept.state), ["signin", "signin"]);
  });

  test("someone else's hands wait on the phone for them to sign in", async () => {
    await Outbox.put(entry(1, [], { user: "ben" }));
    await Outbox.put(entry(1, [], { game: 8 }));
    answers = [recorded(1)];
    const summary = await Outbox.flush();
    assert.equal(sent.length, 1);
    assert.equal(summary.recorded[0].entry.game, 8);
    assert.deepEqual((await Outbox.entries()).map((kept) => kept.user), ["ben"]);
  });

  test("a second flush while one is under way is the same one: no hand is sent twice", async () => {
    await Outbox.put(entry(1));
    answers = [recorded(1)];
    const [one, two] = [Outbox.flush(), Outbox.flush()];
    assert.equal(one, two);
    await one;
    assert.equal(sent.length, 1);
  });
});

describe("what an answer means", () => {
  const cases = [
    [{ network: true }, "retry"], [{ status: 0 }, "retry"], [{ status: 502 }, "retry"],
    [{ status: 201, body: {} }, "recorded"], [{ status: 200, body: { replayed: true } }, "recorded"],
    [{ status: 409, body: { code: "hand_conflict" } }, "review"], [{ status: 409, body: { code: "busy" } }, "refused"],
    [{ status: 302 }, "signin"], [{ status: 401 }, "signin"], [{ status: 403, body: null }, "signin"],
    [{ status: 403, body: { code: "not_allowed" } }, "refused"], [{ status: 400, body: {} }, "refused"],
  ];
  for (const [answer, meaning] of cases) {
    test(`${JSON.stringify(answer)} is ${meaning}`, () => assert.equal(Outbox.outcome(answer), meaning));
  }
});
