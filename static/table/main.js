// The table page at a real table: each hand entry is kept on the phone first (the outbox) and sent from
// there, so a dropped connection, a lost answer, Back or a reload never loses or doubles a hand. The
// entry fits one phone screen: games that enter a hand in steps show one step at a time, and a group of
// numbers with a known sum (Spades' tricks) fills in its last one. Without this script (or without
// IndexedDB) the entry is a plain form that posts.

import * as Outbox from "../outbox.js";
import { $, $all, button, csrfCookie, element } from "./dom.js";
import {
  choicesInWords, clearForm, draftOf, draftStore, fieldsOf, fill, keyOf, setEntryNumber, setKey, startEntry,
  touched,
} from "./entry.js";
import { showErrors } from "./errors.js";
import { dealerAfter, readFacts } from "./facts.js";
import { plural, recordedWords, sidesShown, statusLine } from "./status.js";
import { focusStep, followStep, setUpSteps, showStep, stepsOf } from "./steps.js";
import { updateSums, watchSums } from "./sums.js";
import { createSync } from "./sync.js";
import { swapRegions } from "../live/regions.js";
import { watchVersion } from "../live/watch.js";
import { waitingList } from "./waiting.js";

// The page's state, shared by the parts below: what the server last said of the game (``facts``), how
// many hands it has as far as this page knows (``known``), the entry form, and the kept entry being
// fixed in it (``editing``), if any.
const table = { facts: null, known: 0, form: null, editing: null, drafts: null };
let say = () => null;

const sync = createSync({
  game: () => table.facts.game,
  signedIn: () => Boolean(table.facts.user),
  onSent: afterSending,
  onError: (error) => say(`Could not send the waiting hands (${error}); they stay on this phone.`, "problem"),
});

const renderWaiting = waitingList({ sendAsNext, drop, fix: edit });

function kept() {
  return Outbox.entries(table.facts.game);
}

function showWaiting(entries) {
  renderWaiting(entries, table.facts.user);
  holdEntry(entries);
}

// While another phone's hand and one kept here disagree, the entry waits (its number would be a guess):
// the review card comes into view with the focus, once, and the entry is back when the scorekeeper decides.
// The cards are drawn again whenever the game or the hands kept here change (another phone's correction,
// a send): a card drawn again while the focus was on it takes the focus back, and once the scorekeeper has
// decided, the focus goes on to the entry's first choice.
let reviewShown = null;
let reviewFocused = false;
document.addEventListener("focusin", (event) => {
  reviewFocused = Boolean(event.target.closest && event.target.closest(".hand.kept.review"));
});

function focusLost() {
  return !document.activeElement || document.activeElement === document.body;
}

function holdEntry(entries) {
  const review = entries.find((entry) => entry.state === "review");
  const entry = $("#entry");
  const held = Boolean(entry && entry.hidden);
  if (entry) {
    entry.hidden = Boolean(review);
  }
  if (!review) {
    reviewShown = null;
    if (held && reviewFocused && focusLost() && table.form) {
      reviewFocused = false;
      focusStep(table.form);
    }
    return;
  }
  const card = $(`.hand.kept[data-key="${review.key}"]`);
  if (!card) {
    return;
  }
  card.tabIndex = -1;
  if (reviewShown !== review.key) {
    reviewShown = review.key;
    card.scrollIntoView({ block: "start" });
    card.focus({ preventScroll: true });
  } else if (reviewFocused && focusLost()) {
    card.focus({ preventScroll: true });
  }
}

function saveDraft() {
  if (table.form && !table.editing) {
    table.drafts.save(draftOf(table.form));
  }
}

/** The entry moves on to the hand after the server's and the ``waiting`` ones kept on the phone. */
function entryNumberAfter(waiting) {
  return [table.known + waiting + 1, dealerAfter(table.facts, waiting)];
}

function startNextEntry(entries) {
  startEntry(table.form, table.facts, table.drafts, ...entryNumberAfter(entries.length), Outbox.newKey);
}

// --- what the scorekeeper decides about a hand that was not taken ------------------------------------

async function renumber() {
  let at = table.known;
  await Promise.all((await kept()).map((entry) => {
    at += 1;
    return entry.expected_number === at ? null : Outbox.put({ ...entry, expected_number: at });
  }));
}

async function sendAsNext(entry, state) {
  table.known = Math.max(table.known, state.hand_count || 0);
  if (state.next_dealer) {
    table.facts.nextDealer = state.next_dealer;
  }
  await Outbox.put({ ...entry, state: "waiting", problem: null });
  await renumber();
  await sync.send();
}

async function drop(entry) {
  if (!window.confirm(`Drop hand ${entry.expected_number}? It was not scored, and it will be gone from this phone.`)) {
    return;
  }
  await Outbox.remove(entry.key);
  await renumber();
  await sync.send();
}

function edit(entry) {
  const form = table.form;
  if (!form) {
    return;  // the game is over: there is no entry to fix it in
  }
  table.editing = entry;
  clearForm(form);
  fill(form, entry.fields);
  setKey(form, entry.key);
  setEntryNumber(form, table.facts, entry.expected_number,
                 dealerAfter(table.facts, entry.expected_number - table.known - 1));
  const steps = stepsOf(form);
  showStep(form, steps.length ? steps[steps.length - 1].dataset.step : null);
  updateSums(form);
  showErrors(form, entry.problem || {});
  say(`Fix hand ${entry.expected_number}, then record it again: it is sent before the hands after it.`, "problem");
}

// --- recording -------------------------------------------------------------------------------------

function entryFromForm(expected) {
  const form = table.form;
  return {
    key: keyOf(form) || Outbox.newKey(), game: table.facts.game, url: form.action, fields: fieldsOf(form),
    expected_number: expected, summary: choicesInWords(form), user: table.facts.user, state: "waiting",
    problem: null, seq: Date.now() + Math.random(), created_at: new Date().toISOString(),
  };
}

async function keep() {
  const form = table.form;
  if (table.editing) {
    const entry = { ...table.editing, fields: fieldsOf(form), summary: choicesInWords(form), state: "waiting",
                    problem: null, key: Outbox.newKey() };
    await Outbox.remove(table.editing.key);
    await Outbox.put(entry);
    return entry;
  }
  const entry = entryFromForm(table.known + (await kept()).length + 1);
  await Outbox.put(entry);
  return entry;
}

async function onSubmit(event) {
  event.preventDefault();
  const form = table.form;
  if (form.dataset.busy) {
    return;  // a double tap sends the entry once
  }
  form.dataset.busy = "1";
  try {
    const entry = await keep();
    // Kept on the phone: the form is free for the next hand whatever the network does now.
    const wasEditing = Boolean(table.editing);
    table.editing = null;
    table.drafts.forget();
    const entries = await kept();
    startNextEntry(entries);
    focusStep(form);
    showWaiting(entries);
    say(`Hand ${entry.expected_number} is kept on this phone; sending…`, "waiting");
    await sync.send({ just: entry, wasEditing });
  } catch (error) {
    say(`This phone could not keep the hand (${error}). Record it again.`, "problem");
  } finally {
    delete form.dataset.busy;
  }
}

// --- after a send ------------------------------------------------------------------------------------

async function afterSending(summary, context, recorded) {
  // What the server now has, even if the page cannot be fetched again right away.
  recorded.forEach((item) => {
    table.known = Math.max(table.known, item.answer.number);
    if (item.answer.game && item.answer.game.next_dealer) {
      table.facts.nextDealer = item.answer.game.next_dealer;
    }
  });
  const just = context.just;
  const refused = just && !context.wasEditing &&
    summary.stopped.find((entry) => entry.key === just.key && entry.state === "refused");
  const conflict = summary.stopped.some((entry) => entry.game === table.facts.game && entry.state === "review");
  // Something new on the server (ours, or another phone's hand): show the game as it now stands.
  const ended = recorded.length || conflict ? await refresh() : false;
  if (refused && table.form) {
    // Refused while the scorekeeper is still here: back into the form to be fixed now.
    await Outbox.remove(just.key);
    table.editing = null;
    const form = table.form;
    clearForm(form);
    fill(form, just.fields);
    const entries = await kept();
    setKey(form, Outbox.newKey());
    setEntryNumber(form, table.facts, ...entryNumberAfter(entries.length));
    updateSums(form);
    showWaiting(entries);
    showErrors(form, just.problem || refused.problem || {});
    saveDraft();  // kept on the phone while it is being fixed
    say(`Hand ${just.expected_number} was not recorded: fix what is marked, then record it again.`, "problem");
    return;
  }
  const entries = await kept();
  showWaiting(entries);
  describeQueue(entries, recorded, summary);
  if (table.form && !table.editing) {
    setEntryNumber(table.form, table.facts, ...entryNumberAfter(entries.length));
    saveDraft();
  }
  if (ended) {
    showGameOver();
  }
}

// The game is over (recorded here, on another phone, or from the outbox): the entry has gone and the
// game-over card (the winner, Rematch or the match's next game) is in its place, with the focus.
function showGameOver() {
  table.drafts.forget();
  const card = $("#game-over");
  if (card) {
    card.scrollIntoView({ block: "nearest" });
    card.focus({ preventScroll: true });
  }
}

function describeQueue(entries, recorded, summary) {
  const signin = entries.filter((entry) => entry.state === "signin");
  const stuck = entries.filter((entry) => entry.state === "review" || entry.state === "refused");
  const last = recorded[recorded.length - 1];
  if (signin.length) {
    const line = say(`Your session has ended. Sign in again to send ${plural(entries.length, "hand")} kept on this phone. `,
                     "problem");
    const link = element("a", "", "Sign in");
    link.href = `/accounts/login/?next=${encodeURIComponent(location.pathname)}`;
    line.appendChild(link);
  } else if (stuck.length) {
    say(`Hand ${stuck[0].expected_number} needs you: see it below. The hands after it wait.`, "problem");
  } else if (entries.length) {
    const when = summary.offline || navigator.onLine === false
      ? "they are sent as soon as the connection is back. " : "sending again shortly. ";
    say(`${plural(entries.length, "hand")} kept on this phone, not yet scored: ${when}`, "waiting")
      .appendChild(button("Send now", () => sync.send()));
  } else if (last) {
    say(recordedWords(last.answer, sidesShown()));
    if (!recorded.some((item) => item.answer && item.answer.replayed)) {
      window.scrollTo(0, 0);
    }
  }
}

// --- the page as the server has it now ---------------------------------------------------------------

/**
 * Swap in the server's current scoreboard and history, and the entry when nothing is being entered in it
 * (or when the game has no more hands). Resolves with whether this made the game over here.
 */
async function refresh() {
  let fresh;
  try {
    const response = await fetch(location.pathname, { credentials: "same-origin", cache: "no-store",
                                                      headers: { Accept: "text/html" } });
    if (!response.ok) {
      throw new Error(String(response.status));
    }
    fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  } catch {
    return false;  // offline again: the page stays as it is, the hands are safe
  }
  const wasOver = Boolean($("#game-over"));
  const entry = $("#entry");
  const focusInEntry = Boolean(entry && entry.contains(document.activeElement));
  const focusedId = document.activeElement && document.activeElement.id;
  // What the viewer opened to read (a hand's score in words, what each side needs) stays open.
  const opened = $all("[data-region] details[open][id]").map((details) => details.id);
  // A hand being entered (or fixed) here stays as it is; the entry goes when the game has no more hands.
  swapRegions(fresh, {
    keep: (region) => region.id === "entry" && Boolean(fresh.getElementById("entry")) && Boolean(table.form) &&
      Boolean(table.editing || touched(table.form)),
    drop: (region) => region.id === "entry",
  });
  opened.forEach((id) => {
    const details = document.getElementById(id);
    if (details) {
      details.open = true;
    }
  });
  const data = fresh.getElementById("table-facts");
  if (data) {
    $("#table-facts").textContent = data.textContent;
  }
  readTheFacts();
  await bindForm();
  // The entry drawn again from the server's: the focus goes back where it was, on its first choice.
  if (focusInEntry && table.form && !table.form.contains(document.activeElement)) {
    focusStep(table.form);
  } else if (focusedId && document.activeElement === document.body && document.getElementById(focusedId)) {
    document.getElementById(focusedId).focus({ preventScroll: true });  // e.g. the game-over card, drawn again
  }
  return !wasOver && Boolean($("#game-over"));
}

// --- another phone's hands ---------------------------------------------------------------------------

/** While the page is in view, ask every couple of seconds whether the game changed (a 304 when it did not),
 * and show it as it now stands: another phone's hands, a correction, an undo, the end of the game. */
function watchServer() {
  if (!table.facts.board) {
    return;
  }
  watchVersion({
    url: table.facts.board,
    version: () => table.facts.version,
    busy: () => sync.sending,
    changed: async (text, etag) => {
      table.facts.version = etag;
      const ended = await refresh();
      const entries = await kept();
      showWaiting(entries);
      if (table.form && !table.editing && !touched(table.form)) {
        setEntryNumber(table.form, table.facts, ...entryNumberAfter(entries.length));
      }
      if (ended) {
        showGameOver();
      }
    },
  });
}

// --- wiring ------------------------------------------------------------------------------------------

function readTheFacts() {
  table.facts = readFacts();
  if (table.facts) {
    table.known = Math.max(table.known, table.facts.handCount);
  }
}

function watchForm(form) {
  form.addEventListener("submit", onSubmit);
  form.addEventListener("change", () => {
    followStep(form);
    saveDraft();
  });
  form.addEventListener("input", saveDraft);
  form.addEventListener("step", () => {
    saveDraft();
    // The last hand's "✓ recorded" line has been read by now: its room goes to the step shown.
    const status = $("#outbox-status");
    if (status && status.className === "outbox-status") {
      say("");
    }
  });
}

async function bindForm() {
  const found = $("form[data-outbox]");
  if (found === table.form) {
    return;
  }
  table.form = found;
  if (!found) {
    return;
  }
  watchForm(found);
  $all("input[type=radio]:checked", found).forEach((input) => {
    input.dataset.default = "1";
  });
  setUpSteps(found);
  startNextEntry(await kept());
}

// A page opened from the phone's copy says so, even when the phone believes it is online (a Wi-Fi with
// no way out): it is the game as it was when the copy was made.
async function probeConnection() {
  const banner = $("#connection");
  if (!banner || navigator.onLine === false) {
    return;
  }
  try {
    const response = await fetch("/healthz", { cache: "no-store", credentials: "same-origin" });
    await response.text();  // read to the end, so that the request is over
  } catch {
    if (navigator.onLine === false) {
      return;  // the phone learnt it is offline meanwhile: the page already says so
    }
    const when = new Date(table.facts.renderedAt);
    banner.hidden = false;
    banner.textContent = `Offline: this is the game as it was at ${
      when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    }. Hands you record stay on this phone and are sent when the connection is back.`;
  }
}

function start() {
  readTheFacts();
  watchSums(document);
  if (!table.facts || !window.indexedDB) {
    return;  // the form posts as it always did
  }
  say = statusLine($("#outbox-status"));
  table.drafts = draftStore(table.facts.game);
  const serverForm = $("form[data-outbox]");
  // A form shown again with errors from the server (no script ran when it was sent) keeps what it shows.
  if (serverForm && $(".field-error, .form-errors", serverForm)) {
    table.drafts.forget();
    table.form = serverForm;
    serverForm.addEventListener("submit", onSubmit);
  } else {
    bindForm();
  }
  Outbox.setMeta("csrf", csrfCookie());
  Outbox.setMeta("user", table.facts.user);
  Outbox.listen((message) => {
    if (message.type === "changed" && !sync.sending) {
      kept().then(showWaiting);
    } else {
      sync.hear(message);
    }
  });
  kept().then((entries) => {
    showWaiting(entries);
    if (entries.length) {
      describeQueue(entries, [], { offline: navigator.onLine === false });
    }
  });
  sync.keepTrying();
  watchServer();
  // Shown again from the browser's page cache (Back): take the page as it is now, never as it was.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      location.reload();
    }
  });
  sync.send();
  probeConnection();
}

start();
