// Whether the game changed, asked every couple of seconds while the page is in view: a conditional request
// for something whose ETag is the game's version (the spectator board, the player's view), so an unchanged
// game costs the server a 304. Every page that shows a game (the table page, the player's or follower's
// view, the TV board) watches it this way. The page decides what to do with a new answer.

/** How often a page asks: a hand shows everywhere within this and one round trip (three seconds at most). */
export const EVERY_MS = 2000;

// The answers that say the page may no longer see the game (signed out, a table code renewed, made private).
const GONE = new Set([401, 403, 404, 410]);

/**
 * Watch ``url``. ``version()`` is the ETag of what the page shows now; ``changed(text, etag)`` is called (and
 * awaited) with each answer that differs from it; ``gone(status)`` once, when the game can no longer be seen
 * from here (the watcher then stops). ``busy()`` skips a turn (the page is sending something of its own).
 * While the page is hidden, or the phone offline, nothing is asked; back in view, it asks at once.
 * Returns ``{ now, stop }``: ask at once, stop asking.
 */
export function watchVersion({
  url, version, changed, gone = () => {}, busy = () => false, every = EVERY_MS,
  fetcher = (...args) => globalThis.fetch(...args), timers = globalThis, page = globalThis.document,
  online = () => globalThis.navigator.onLine !== false, clock = () => Date.now(),
}) {
  let timer = null;
  let asking = false;
  let stopped = false;

  async function look() {
    const known = version();
    let response;
    let text;
    try {
      response = await fetcher(url, { credentials: "same-origin", cache: "no-store",
                                      headers: known ? { "If-None-Match": known } : {} });
      text = await response.text();  // read to the end: the request is over, the connection free again
    } catch {
      return;  // no connection for a moment: the next turn asks again
    }
    if (GONE.has(response.status)) {
      stop();
      await gone(response.status);
      return;
    }
    const etag = response.headers.get("ETag");
    if (response.status !== 200 || (etag && etag === version()) || busy()) {
      return;
    }
    await changed(text, etag);
  }

  async function turn() {
    timer = null;
    if (stopped || asking) {
      return;  // the turn under way schedules the next
    }
    const started = clock();
    if (page.visibilityState === "visible" && online() && !busy()) {
      asking = true;
      try {
        await look();
      } catch {
        /* the page could not show the answer: the next turn tries again */
      } finally {
        asking = false;
      }
    }
    // Turns start ``every`` apart, however long the answer took to come and be drawn: a change shows
    // within ``every`` and one turn, not two.
    schedule(Math.max(0, every - (clock() - started)));
  }

  function schedule(delay = every) {
    if (!stopped && timer === null) {
      timer = timers.setTimeout(turn, delay);
    }
  }

  function now() {
    if (timer !== null) {
      timers.clearTimeout(timer);
      timer = null;
    }
    return turn();
  }

  function stop() {
    stopped = true;
    if (timer !== null) {
      timers.clearTimeout(timer);
      timer = null;
    }
  }

  // A phone woken up, or a tab brought back, shows the game as it is now rather than after the next turn.
  page.addEventListener("visibilitychange", () => (page.visibilityState === "visible" && !stopped ? now() : null));
  if (globalThis.addEventListener) {
    globalThis.addEventListener("online", () => !stopped && now());
  }
  schedule();
  return { now, stop };
}
