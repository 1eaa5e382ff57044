// Every page showing a game follows it: how the watcher asks (and when it does not), and how a page keeps
// the viewer's place when its parts are drawn again.
import assert from "node:assert/strict";
import { test } from "node:test";

import { anchors, onScreen, scrollCorrection } from "../../static/live/regions.js";
import { watchVersion } from "../../static/live/watch.js";

// A page, timers and a server that the test drives by hand.
function harness(answers, { visible = true, online = true } = {}) {
  const page = {
    visibilityState: visible ? "visible" : "hidden",
    listeners: {},
    addEventListener(name, listener) {
      this.listeners[name] = listener;
    },
  };
  const timers = {
    pending: null,
    setTimeout(callback, delay) {
      this.pending = { callback, delay };
      return 1;
    },
    clearTimeout() {
      this.pending = null;
    },
    async fire() {
      const { callback } = this.pending;
      this.pending = null;
      await callback();
    },
  };
  const asked = [];
  const fetcher = async (url, options) => {
    asked.push({ url, ifNoneMatch: options.headers["If-None-Match"] });
    const answer = answers.shift();
    if (answer instanceof Error) {
      throw answer;
    }
    return { status: answer.status, headers: { get: () => answer.etag || null }, text: async () => answer.body || "" };
  };
  return { page, timers, asked, fetcher, online: () => online };
}

test("an unchanged game is asked about every two seconds with its version, and nothing is drawn again", async () => {
  const h = harness([{ status: 304 }, { status: 304 }]);
  const changes = [];
  watchVersion({ url: "/games/7/live/board/", version: () => '"v1"', changed: (...args) => changes.push(args),
                 fetcher: h.fetcher, timers: h.timers, page: h.page, online: h.online });
  assert.equal(h.timers.pending.delay, 2000);
  await h.timers.fire();
  await h.timers.fire();
  assert.deepEqual(h.asked, [{ url: "/games/7/live/board/", ifNoneMatch: '"v1"' },
                             { url: "/games/7/live/board/", ifNoneMatch: '"v1"' }]);
  assert.deepEqual(changes, []);
  assert.ok(h.timers.pending, "it keeps asking");
});

test("a new version is handed to the page with its answer, and asked about from then on", async () => {
  const h = harness([{ status: 200, etag: '"v2"', body: "<div id=board>2</div>" }, { status: 304 }]);
  let version = '"v1"';
  const changes = [];
  watchVersion({
    url: "/games/7/follow/", version: () => version, fetcher: h.fetcher, timers: h.timers, page: h.page,
    online: h.online, changed: (text, etag) => {
      changes.push([text, etag]);
      version = etag;
    },
  });
  await h.timers.fire();
  await h.timers.fire();
  assert.deepEqual(changes, [["<div id=board>2</div>", '"v2"']]);
  assert.equal(h.asked[1].ifNoneMatch, '"v2"');
});

test("a slow answer does not stretch the turns: the next one starts two seconds after the last began", async () => {
  const h = harness([{ status: 200, etag: '"v2"', body: "new" }, { status: 304 }]);
  let now = 0;
  watchVersion({ url: "/b", version: () => '"v1"', fetcher: h.fetcher, timers: h.timers, page: h.page,
                 online: h.online, clock: () => now, changed: () => { now += 1500; } });
  await h.timers.fire();
  assert.equal(h.timers.pending.delay, 500);
  now += 500;
  await h.timers.fire();
  assert.equal(h.timers.pending.delay, 2000, "an answer taking no time: two seconds");
});

test("an answer the page already shows (its own hand, drawn meanwhile) is not drawn twice", async () => {
  const h = harness([{ status: 200, etag: '"v1"', body: "same" }]);
  const changes = [];
  watchVersion({ url: "/b", version: () => '"v1"', changed: () => changes.push(1), fetcher: h.fetcher,
                 timers: h.timers, page: h.page, online: h.online });
  await h.timers.fire();
  assert.deepEqual(changes, []);
});

test("a hidden page, an offline phone and a page busy sending ask nothing", async () => {
  for (const [options, busy] of [[{ visible: false }, false], [{ online: false }, false], [{}, true]]) {
    const h = harness([], options);
    watchVersion({ url: "/b", version: () => "", changed: () => {}, busy: () => busy, fetcher: h.fetcher,
                   timers: h.timers, page: h.page, online: h.online });
    await h.timers.fire();
    assert.deepEqual(h.asked, []);
    assert.ok(h.timers.pending, "and asks again later");
  }
});

test("a page coming back into view asks at once, without a second round of turns", async () => {
  const h = harness([{ status: 304 }], { visible: false });
  watchVersion({ url: "/b", version: () => '"v1"', changed: () => {}, fetcher: h.fetcher, timers: h.timers,
                 page: h.page, online: h.online, clock: () => 0 });  // a clock that stands still: no ms lost
  h.page.visibilityState = "visible";
  await h.page.listeners.visibilitychange();
  assert.equal(h.asked.length, 1);
  assert.equal(h.timers.pending.delay, 2000, "one turn waiting, not two");
});

test("no connection for a moment: the next turn asks again", async () => {
  const h = harness([new Error("offline"), { status: 304 }]);
  watchVersion({ url: "/b", version: () => '"v1"', changed: () => {}, fetcher: h.fetcher, timers: h.timers,
                 page: h.page, online: h.online });
  await h.timers.fire();
  await h.timers.fire();
  assert.equal(h.asked.length, 2);
});

test("a game no longer to be seen (a renewed table code) stops the watcher and says why, once", async () => {
  const h = harness([{ status: 403 }]);
  const gone = [];
  watchVersion({ url: "/b", version: () => '"v1"', changed: () => {}, gone: (status) => gone.push(status),
                 fetcher: h.fetcher, timers: h.timers, page: h.page, online: h.online });
  await h.timers.fire();
  assert.deepEqual(gone, [403]);
  assert.equal(h.timers.pending, null);
});

test("what the viewer looks at stays where it was, however much was added above it", () => {
  // Hand 3 was 40 px from the top of the screen; a new hand 4 above it pushed it 180 px down.
  const shown = [{ key: "#hand-3", top: 40 }, { key: "#hand-2", top: 220 }];
  assert.equal(scrollCorrection(shown, new Map([["#hand-3", 220], ["#hand-2", 400]])), 180);
  // A hand undone is gone: the next one on the screen decides.
  assert.equal(scrollCorrection(shown, new Map([["#hand-2", 200]])), -20);
  assert.equal(scrollCorrection(shown, new Map()), 0);
});

test("what is on the screen: boxes reaching into it, in page order", () => {
  const boxes = [{ key: "a", top: -300, bottom: -10 }, { key: "b", top: -10, bottom: 90 }, { key: "c", top: 800, bottom: 900 },
                 { key: "d", top: 844, bottom: 900 }];
  assert.deepEqual(onScreen(boxes, 844).map((box) => box.key), ["b", "c"]);
});

test("the view is anchored on the innermost parts on the screen, not on what holds them", () => {
  const shown = [{ key: "#history-region", top: -900, holds: true }, { key: "#hand-3", top: 40, holds: true },
                 { key: "#explain-3", top: 90, holds: false }, { key: "#hand-2", top: 300, holds: false }];
  assert.deepEqual(anchors(shown).map((box) => box.key), ["#explain-3", "#hand-2", "#history-region", "#hand-3"]);
  // The history's own top does not move when a hand is added inside it: a hand's card decides.
  const after = new Map([["#history-region", -900], ["#hand-3", 233], ["#explain-3", 283], ["#hand-2", 493]]);
  assert.equal(scrollCorrection(anchors(shown), after), 193);
  assert.equal(scrollCorrection(shown, after), 0);
});
