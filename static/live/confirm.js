// Confirming or disputing a hand: on a player's own phone (the Confirm button beside each hand they may
// confirm), or on the scorekeeper's phone handed across the table (the hand's confirm screen). The forms post
// as they are without this script. With it, each tap is kept on the phone in the outbox (IndexedDB, like the
// scorekeeper's hands) with an idempotency key made for that tap, and sent at once, or, offline, as soon as
// the phone is back online: from this page, from the table page, after a reload, or by the service worker.
// The server answers a retry with the same key with its first answer, so a tap confirms once.

import * as Outbox from "../outbox.js";

const RETRY_EVERY_MS = 5000;
// What a form carries that the outbox sends its own way (the CSRF token in a header, the tap's key).
const NOT_KEPT = new Set(["csrfmiddlewaretoken", "idempotency_key"]);

/**
 * The outbox entry for a tap on a confirm or dispute form: ``fields`` as the form sends them (the button
 * tapped included), ``game`` and ``number`` the hand's, ``who`` the player in words ("Ben (East)", empty on
 * their own phone), ``user`` who is signed in (empty for a phone with the table's code), a new key.
 */
export function checkEntry({ url, game, number, fields, who = "", user = "", newKey = Outbox.newKey,
                             now = Date.now() }) {
  const action = (fields.find(([name]) => name === "action") || [])[1] || "confirm";
  return {
    key: newKey(), kind: "check", game: Outbox.checksQueue(game), url, number: Number(number), action, who,
    fields: fields.filter(([name]) => !NOT_KEPT.has(name)), user, state: "waiting", problem: null,
    seq: now + Math.random(), created_at: new Date(now).toISOString(),
  };
}

function whose(entry) {
  const what = entry.action === "dispute" ? "dispute" : "confirmation";
  return entry.who ? `${entry.who}'s ${what}` : `your ${what}`;
}

/** What the page says of an entry kept on the phone, waiting for the connection. */
export function keptWords(entry) {
  return `Hand ${entry.number}: ${whose(entry)} is kept on this phone and sent when it is back online.`;
}

/** What the page says once the server has answered an entry: its own words, or ours if it gave none. */
export function answerWords(entry, answer, refused = false) {
  const detail = answer && answer.detail;
  if (refused) {
    return `Hand ${entry.number}: ${whose(entry)} was not taken: ${detail || "the hand shows why"}`;
  }
  return detail || `Hand ${entry.number}: ${whose(entry)} has been sent.`;
}

/** The hand a form confirms or disputes, read from its address: /games/<game>/hands/<number>/check/. */
export function handOf(url) {
  const match = /\/games\/(\d+)\/hands\/(\d+)\/check\/?/.exec(url || "");
  return match ? { game: Number(match[1]), number: Number(match[2]) } : null;
}

// --- the page --------------------------------------------------------------------------------------

function csrfCookie() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// What the page says of a hand goes beside that hand, where it is in a list of hands (the follow page); the
// page's status line says it too, for a screen reader, and shows it where there is no list (the confirm
// screen, which is about one hand).
function say(text, { number = null, problem = false } = {}) {
  const status = document.querySelector("[data-confirm-status]");
  const card = number === null ? null : document.querySelector(`#hand-${number} .hand-check`);
  if (card) {
    let note = card.querySelector(".check-note");
    if (!note) {
      note = card.appendChild(document.createElement("p"));
      note.className = "check-note";
    }
    note.textContent = text;
    note.classList.toggle("problem", problem);
  }
  if (status) {
    status.textContent = text;
    status.classList.toggle("problem", problem);
    status.classList.toggle("visually-hidden", Boolean(card));
    status.hidden = false;
  }
}

function formsOf(entry) {
  return Array.from(document.querySelectorAll("form[data-confirm-form]"))
    .filter((form) => form.getAttribute("action") === entry.url || (!form.getAttribute("action") &&
      new URL(entry.url, location.href).pathname === location.pathname));
}

function hold(entry) {
  formsOf(entry).forEach((form) => form.querySelectorAll("button").forEach((button) => {
    button.disabled = true;
  }));
}

function release(entry) {
  formsOf(entry).forEach((form) => form.querySelectorAll("button").forEach((button) => {
    button.disabled = false;
  }));
}

// No connection: the service worker sends what waits once it is back, even with the page closed (where the
// browser has Background Sync; elsewhere the pages' own retries cover it).
function backgroundSync() {
  const worker = navigator.serviceWorker;
  if (worker && worker.ready) {
    worker.ready.then((registration) => registration.sync && registration.sync.register("outbox")).catch(() => null);
  }
}

function start() {
  const here = handOf(location.pathname) || {};
  const pageGame = Number(document.querySelector("[data-confirm-game]")?.dataset.confirmGame || here.game);
  const user = document.querySelector("[data-confirm-game]")?.dataset.user || "";
  const ours = (entry) => entry.game === Outbox.checksQueue(pageGame);
  // The tap on this page, if any: once it has been answered, the page goes where the form would have.
  let tapped = null;

  async function send() {
    const summary = await Outbox.flush({ csrf: csrfCookie() });
    if (summary.offline) {
      backgroundSync();
    }
    for (const { entry, answer } of summary.recorded.filter((item) => item.entry.kind === "check")) {
      say(answerWords(entry, answer), { number: entry.number });
      if (tapped && tapped.go && entry.key === tapped.key && answer && answer.location) {
        location.assign(answer.location);
      }
    }
    for (const { entry, answer } of summary.refused) {
      if (tapped && tapped.go && entry.key === tapped.key) {
        // Refused as it was tapped on the confirm screen: the form posts as it would without script (with the
        // button tapped), and the screen that comes back says why (a dispute, each field to fix).
        const button = tapped.submitter;
        if (button && button.name) {
          const field = tapped.form.appendChild(document.createElement("input"));
          Object.assign(field, { type: "hidden", name: button.name, value: button.value });
        }
        tapped.form.submit();
        return summary;
      }
      release(entry);
      say(answerWords(entry, answer.body, true), { number: entry.number, problem: true });
    }
    const waiting = (await Outbox.entries()).filter((entry) => entry.kind === "check" && ours(entry));
    waiting.forEach(hold);
    if (summary.offline) {
      waiting.forEach((entry) => say(keptWords(entry), { number: entry.number }));
    }
    return summary;
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    // (Already sent: a second tap, which the page's guard against sending a form twice has stopped.)
    if (!(form instanceof HTMLFormElement) || !form.matches("[data-confirm-form]") || event.defaultPrevented) {
      return;
    }
    const url = form.getAttribute("action") || location.pathname;
    const hand = handOf(url);
    if (!hand) {
      return;  // posted as it is
    }
    event.preventDefault();
    const fields = Array.from(new FormData(form, event.submitter)).map(([name, value]) => [name, String(value)]);
    // Whose tap it is, on the scorekeeper's phone handed across: the name on the button, or the one chosen.
    const chosen = form.querySelector("input[name=seat]:checked");
    const who = (event.submitter && event.submitter.dataset.who) || (chosen && chosen.dataset.who) || "";
    const entry = checkEntry({ url, game: hand.game, number: hand.number, fields, user, who });
    tapped = { key: entry.key, form, submitter: event.submitter, go: form.hasAttribute("data-go") };
    await Outbox.put(entry);
    hold(entry);
    say(navigator.onLine === false ? keptWords(entry) : `Hand ${entry.number}: sending ${whose(entry)}…`,
        { number: entry.number });
    await send();
  });

  Outbox.listen((message) => {
    if (message.game === Outbox.checksQueue(pageGame) && message.type === "checked" && message.answer) {
      say(message.answer.detail || `Hand ${message.number}: sent.`, { number: message.number });
    }
  });
  window.addEventListener("online", () => send());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      send();
    }
  });
  setInterval(async () => {
    if ((await Outbox.entries()).some((entry) => entry.kind === "check" && entry.state === "waiting")) {
      send();
    }
  }, RETRY_EVERY_MS);
  // Kept from before (this page, reloaded, or another one): shown as waiting here, and sent now; one
  // stopped by an ended session is tried again with this page's.
  Outbox.entries().then(async (entries) => {
    const stopped = entries.filter((entry) => entry.kind === "check" && entry.state === "signin");
    await Promise.all(stopped.map((entry) => Outbox.put({ ...entry, state: "waiting" })));
    const waiting = entries.filter((entry) => entry.kind === "check" && ours(entry));
    waiting.forEach((entry) => {
      hold(entry);
      say(keptWords(entry), { number: entry.number });
    });
    send();
  });
}

if (typeof document !== "undefined" && typeof window !== "undefined" && window.indexedDB) {
  start();
}
