// A confirmation or dispute tapped on a phone is kept in the outbox (IndexedDB, fake-indexeddb here) with a
// key made for that tap, and sent once, with that key, when the server can be reached; the server the test
// plays answers it.
import "fake-indexeddb/auto";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";

import * as Outbox from "../../static/outbox.js";
import { answerWords, checkEntry, handOf, keptWords } from "../../static/live/confirm.js";

const GAME = 7;
let sent;
let answers;

function server() {
  sent = [];
  globalThis.fetch = async (url, init) => {
    sent.push({ url, fields: Object.fromEntries(init.body), csrf: init.headers["X-CSRFToken"] });
    const answer = answers.shift();
    if (answer === undefined || answer === "network") {
      throw new TypeError("Failed to fetch");
    }
    return new Response(JSON.stringify(answer.body), {
      status: answer.status, headers: { "Content-Type": "application/json" },
    });
  };
}

let keys = 0;
function tap(number, fields = [["action", "confirm"]], extra = {}) {
  return checkEntry({
    url: `/games/${GAME}/hands/${number}/check/`, game: GAME, number,
    fields: [["csrfmiddlewaretoken", "page-token"], ["idempotency_key", "from-the-page"], ["version", "v1"],
             ...fields],
    newKey: () => `tap-${(keys += 1)}`, ...extra,
  });
}

function confirmed(number, who = "East (Ben)") {
  return { status: 200, body: { number, detail: `Hand ${number} confirmed by ${who}.`, confirmation: "confirmed",
                                location: `/games/${GAME}/follow/#hand-${number}` } };
}

beforeEach(async () => {
  server();
  answers = [];
  for (const kept of await Outbox.entries()) {
    await Outbox.remove(kept.key);
  }
  await Outbox.setMeta("user", undefined);
});

afterEach(() => {
  delete globalThis.fetch;
});

describe("a tap", () => {
  test("is an entry of the game's checks queue, with a key of its own and what the form sends", () => {
    const first = tap(4);
    const again = tap(4);
    assert.equal(first.kind, "check");
    assert.equal(first.game, Outbox.checksQueue(GAME));
    assert.notEqual(first.game, GAME, "the table page's list of waiting hands does not show it");
    assert.equal(first.number, 4);
    assert.equal(first.action, "confirm");
    assert.notEqual(first.key, again.key, "each tap has its own key");
    assert.deepEqual(first.fields, [["version", "v1"], ["action", "confirm"]]);
  });

  test("a dispute is said to be one", () => {
    const entry = tap(2, [["action", "dispute"], ["seat", "W"]], { who: "West (Dan)" });
    assert.equal(entry.action, "dispute");
    assert.equal(keptWords(entry), "Hand 2: West (Dan)'s dispute is kept on this phone and sent when it is back online.");
  });

  test("the page says whose it is, with the player's name on a phone handed across", () => {
    assert.equal(keptWords(tap(4)), "Hand 4: your confirmation is kept on this phone and sent when it is back online.");
    assert.equal(keptWords(tap(4, undefined, { who: "East (Ben)" })),
                 "Hand 4: East (Ben)'s confirmation is kept on this phone and sent when it is back online.");
    assert.equal(answerWords(tap(4), confirmed(4).body), "Hand 4 confirmed by East (Ben).");
    assert.equal(answerWords(tap(4), { detail: "hand 4 has changed since your phone showed it" }, true),
                 "Hand 4: your confirmation was not taken: hand 4 has changed since your phone showed it");
  });

  test("the hand is read from the form's address", () => {
    assert.deepEqual(handOf("/games/12/hands/3/check/"), { game: 12, number: 3 });
    assert.equal(handOf("/games/12/"), null);
  });
});

describe("sending", () => {
  test("offline it stays on the phone; back online it is sent once, with the tap's key", async () => {
    const entry = tap(4);
    await Outbox.put(entry);

    answers = ["network"];
    const offline = await Outbox.flush({ csrf: "cookie-token" });
    assert.equal(offline.offline, true);
    assert.equal((await Outbox.entries()).length, 1, "kept on the phone (and so across a reload)");

    answers = [confirmed(4)];
    const online = await Outbox.flush({ csrf: "cookie-token" });
    assert.deepEqual(online.recorded.map((item) => item.answer.detail), ["Hand 4 confirmed by East (Ben)."]);
    assert.deepEqual(await Outbox.entries(), []);
    assert.equal(sent.length, 2);
    assert.deepEqual(sent.map((request) => request.fields.idempotency_key), [entry.key, entry.key]);
    assert.equal(sent[1].fields.action, "confirm");
    assert.equal(sent[1].fields.version, "v1");
    assert.equal(sent[1].csrf, "cookie-token");
    assert.equal("expected_number" in sent[1].fields, false);
    assert.equal("csrfmiddlewaretoken" in sent[1].fields, false);

    await Outbox.flush({ csrf: "cookie-token" });
    assert.equal(sent.length, 2, "nothing is sent again");
  });

  test("an answer lost on the way is asked for again with the same key", async () => {
    const entry = tap(4);
    await Outbox.put(entry);
    answers = [{ status: 503, body: { detail: "busy" } }, confirmed(4)];

    await Outbox.flush();
    await Outbox.flush();

    assert.deepEqual(sent.map((request) => request.fields.idempotency_key), [entry.key, entry.key]);
    assert.deepEqual(await Outbox.entries(), []);
  });

  test("a refused one leaves the phone, is told, and holds back none after it", async () => {
    const heard = [];
    Outbox.listen((message) => heard.push(message));
    await Outbox.put({ ...tap(4), seq: 1 });
    await Outbox.put({ ...tap(5), seq: 2 });
    answers = [{ status: 409, body: { code: "refused", detail: "hand 4 has changed since your phone showed it" } },
               confirmed(5)];

    const summary = await Outbox.flush();

    assert.deepEqual(summary.refused.map((item) => item.entry.number), [4]);
    assert.deepEqual(summary.recorded.map((item) => item.answer.number), [5]);
    assert.deepEqual(await Outbox.entries(), []);
    assert.ok(heard.some((message) => message.type === "check-refused" && message.number === 4));
    assert.ok(heard.some((message) => message.type === "checked" && message.number === 5));
  });

  test("a hand waiting for review on the scorekeeper's phone does not hold a confirmation back", async () => {
    await Outbox.put({ key: "hand-3", game: GAME, url: `/games/${GAME}/hands/`, fields: [], expected_number: 3,
                       user: "", state: "review", problem: null, seq: 0 });
    await Outbox.put(tap(2));
    answers = [confirmed(2)];

    const summary = await Outbox.flush();

    assert.deepEqual(summary.recorded.map((item) => item.entry.number), [2]);
    assert.deepEqual((await Outbox.entries()).map((entry) => entry.key), ["hand-3"]);
    assert.deepEqual((await Outbox.entries(GAME)).map((entry) => entry.key), ["hand-3"],
                     "the table page's waiting hands are the hands only");
  });

  test("an ended session stops it on the phone until a page tries it again", async () => {
    await Outbox.put(tap(4));
    answers = [{ status: 403, body: null }];

    const summary = await Outbox.flush();

    assert.deepEqual(summary.stopped.map((entry) => entry.state), ["signin"]);
    assert.equal((await Outbox.entries())[0].state, "signin");
  });
});
