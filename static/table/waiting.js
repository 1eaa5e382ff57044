// The hands kept on this phone, shown in the history above the recorded ones: waiting to be sent, or
// stopped until the scorekeeper decides (another phone got there first; refused by the rules).

import { $, $all, button, element } from "./dom.js";

const STATE_WORDS = { waiting: "waiting — not yet scored", review: "needs review", refused: "refused — not scored" };

/** The kept cards' state: "waiting", "review" or "refused" (hands waiting for a sign-in are waiting). */
export function cardState(entry) {
  return entry.state === "review" || entry.state === "refused" ? entry.state : "waiting";
}

/** What the review card says of the game as the server has it. */
export function reviewWords(state) {
  const count = state.hand_count || 0;
  const totals = Object.entries(state.totals || {}).map(([side, total]) => `${side} ${total}`).join(", ");
  return `Another phone recorded hand ${state.hand_count || ""} first. The game as the server has it: ` +
    `${count} hand${count === 1 ? "" : "s"}${totals ? `, ${totals}` : ""}. ` +
    "Send this entry as the next hand, or drop it if it is the same hand.";
}

/** Every reason the server gave for refusing a hand, or one that says so. */
export function refusalMessages(problem) {
  const messages = [...(problem.non_field_errors || []), ...Object.values(problem.groups || {}).flat(),
                    ...Object.values(problem.errors || {}).flat()];
  return messages.length ? messages : [problem.detail || "The server refused this hand."];
}

function reviewPanel(entry, actions) {
  const panel = element("div", "problem");
  const state = (entry.problem && entry.problem.state) || {};
  panel.appendChild(element("p", "", reviewWords(state)));
  const choices = element("div", "actions");
  choices.appendChild(button(`Send as hand ${(state.hand_count || 0) + 1}`,
                             () => actions.sendAsNext(entry, state), "primary"));
  choices.appendChild(button("Drop this hand", () => actions.drop(entry)));
  panel.appendChild(choices);
  return panel;
}

function refusedPanel(entry, actions) {
  const panel = element("div", "problem");
  const problem = entry.problem || {};
  refusalMessages(problem).forEach((message) => panel.appendChild(element("p", "field-error", message)));
  const choices = element("div", "actions");
  if (problem.code !== "not_allowed" && problem.code !== "not_found") {
    choices.appendChild(button("Fix it", () => actions.fix(entry), "primary"));
  }
  choices.appendChild(button("Drop this hand", () => actions.drop(entry)));
  panel.appendChild(choices);
  return panel;
}

function card(entry, user, actions) {
  const state = cardState(entry);
  const item = element("li", `hand kept ${state}`);
  item.dataset.key = entry.key;
  const head = element("div", "hand-head");
  head.appendChild(element("b", "", `Hand ${entry.expected_number}`));
  head.appendChild(element("span", "state", STATE_WORDS[state]));
  if (entry.user && user && entry.user !== user) {
    item.appendChild(element("p", "problem",
                             `Entered by ${entry.user}: sent when ${entry.user} signs in on this phone.`));
  }
  item.appendChild(head);
  const choices = element("ul", "choices");
  (entry.summary || []).forEach((line) => choices.appendChild(element("li", "", line)));
  item.appendChild(choices);
  if (state === "review") {
    item.appendChild(reviewPanel(entry, actions));
  }
  if (state === "refused") {
    item.appendChild(refusedPanel(entry, actions));
  }
  return item;
}

/**
 * The kept cards, drawn again only when what they show changes, so that a card (and the button under the
 * scorekeeper's thumb) is not replaced by an identical one when several sends end one after another.
 * ``actions``: what the cards' buttons do, ``{sendAsNext(entry, state), drop(entry), fix(entry)}``.
 */
export function waitingList(actions) {
  let shown = null;
  return function render(entries, user) {
    const list = $("#hands");
    const now = JSON.stringify(entries.map((entry) =>
      [entry.key, entry.state, entry.expected_number, entry.user, entry.summary, entry.problem]));
    if (list && now === shown && $all(".hand.kept", list).length === entries.length) {
      return;
    }
    shown = now;
    $all(".hand.kept", list || document).forEach((kept) => kept.remove());
    const none = $("[data-no-hands]");
    if (none) {
      none.hidden = entries.length > 0;
    }
    if (list) {
      list.prepend(...entries.map((entry) => card(entry, user, actions)));  // in the order entered, above the recorded hands
    }
  };
}
