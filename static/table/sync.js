// Sending the hands kept on this phone: now, after each Record; again and again while there is no
// answer; when the phone is back online or the page is shown again; and by the service worker's
// Background Sync with the page closed. Hands sent by the service worker or another tab are heard of too.

import * as Outbox from "../outbox.js";
import { csrfCookie } from "./dom.js";

const RETRY_EVERY_MS = 20000;

/** After a send that got no answer: 2 s, then twice as long each time, at most 30 s. */
export function nextRetryDelay(previous) {
  return Math.min(previous ? previous * 2 : 2000, 30000);
}

/** The hands of ``game`` the server took (this send's, then those heard of), each once. */
export function recordedOf(game, summary, heard) {
  const seen = new Set();
  return summary.recorded.filter((item) => item.entry.game === game).concat(heard)
    .filter((item) => !seen.has(item.entry.key) && seen.add(item.entry.key));
}

function registerBackgroundSync() {
  if (!navigator.serviceWorker || !navigator.serviceWorker.ready) {
    return;
  }
  navigator.serviceWorker.ready.then((registration) => registration.sync && registration.sync.register("outbox"))
    .catch(() => { /* no Background Sync (Safari, Firefox): the page's own retries cover it */ });
}

/**
 * The page's sender for game ``game()``. ``onSent(summary, context, recorded)`` shows what a send did;
 * ``onError(error)`` says the outbox could not be read. ``context`` is what the caller passes to
 * ``send`` (e.g. the hand just entered), handed back to ``onSent``.
 */
export function createSync({ game, signedIn, onSent, onError }) {
  let sending = false;
  let sendAgain = null;
  let retryDelay = 0;
  let retryTimer = null;
  const fromHere = new Set();
  const heard = [];

  function retrySoon(offline) {
    if (!offline) {
      retryDelay = 0;
      return;
    }
    retryDelay = nextRetryDelay(retryDelay);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => send(), retryDelay);
  }

  async function send(context) {
    if (sending) {
      // Asked while another send is under way: sent as soon as that one is done.
      sendAgain = context || sendAgain || {};
      return;
    }
    sending = true;
    let summary = null;
    try {
      const csrf = csrfCookie();
      await Outbox.setMeta("csrf", csrf);
      // Hands stopped because the session had ended are tried again: this page says who is signed in now.
      if (signedIn()) {
        const stopped = (await Outbox.entries()).filter((entry) => entry.state === "signin");
        await Promise.all(stopped.map((entry) => Outbox.put({ ...entry, state: "waiting" })));
      }
      summary = await Outbox.flush({ csrf });
      summary.recorded.forEach((item) => fromHere.add(item.entry.key));
      // No connection: let the service worker send them when it is back, even with this page closed.
      if (summary.offline) {
        registerBackgroundSync();
      }
      retrySoon(summary.offline || summary.stopped.some((entry) => entry.state === "waiting"));
      // Still "sending" while the page shows what the send did, so that nothing redraws it meanwhile.
      await onSent(summary, context || {}, recordedOf(game(), summary, heard.splice(0)));
    } catch (error) {
      onError(error);
    } finally {
      sending = false;
    }
    const next = sendAgain;
    sendAgain = null;
    if (next) {
      await send(next);
    }
  }

  /** A message from the outbox: a hand sent by the service worker or another tab is shown here too. */
  function hear(message) {
    if (message.type === "recorded" && message.game === game() && !fromHere.has(message.key)) {
      heard.push({ entry: { game: message.game, key: message.key }, answer: message.answer });
      if (!sending) {
        return onSent({ recorded: [], stopped: [], offline: false }, {}, recordedOf(game(), { recorded: [] }, heard.splice(0)));
      }
    }
    return null;
  }

  /** Keep trying: when the phone is back online, when the page is shown again, and every 20 s. */
  function keepTrying() {
    window.addEventListener("online", () => send());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        send();
      }
    });
    setInterval(async () => {
      if ((await Outbox.entries()).some((entry) => entry.state === "waiting")) {
        send();
      }
    }, RETRY_EVERY_MS);
  }

  return { send, hear, keepTrying, get sending() { return sending; } };
}
