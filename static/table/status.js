// The status line under the scoreboard: what happened to the last hand, and what is waiting.

import { $all } from "./dom.js";

/** ``say(message, kind)`` on the status line ("", "waiting" or "problem"); returns the line. */
export function statusLine(line) {
  return function say(message, kind = "") {
    line.hidden = !message;
    line.className = `outbox-status${kind ? ` ${kind}` : ""}`;
    line.textContent = message || "";
    return line;
  };
}

/** "✓ Hand 6 recorded: NS +72, EW −50.": the sides in ``order`` (a stored answer's may come in any). */
export function recordedWords(answer, order) {
  const delta = (answer.game && answer.game.delta) || {};
  const changes = Object.keys(delta).sort((one, other) => order.indexOf(one) - order.indexOf(other))
    .map((side) => `${side} ${delta[side] > 0 ? "+" : ""}${String(delta[side]).replace("-", "−")}`)
    .join(", ");
  return `✓ Hand ${answer.number} recorded${changes ? `: ${changes}` : ""}.`;
}

/** The sides in the scoreboard's order. */
export function sidesShown() {
  return $all("[data-side]").map((side) => side.dataset.side);
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
