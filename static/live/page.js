// The pages that only show a game (the player's or follower's view, the TV board): they follow it as it is
// played. Every couple of seconds they ask whether it changed (a 304 when it did not) and swap in its parts
// as the server now draws them, keeping the viewer's place. Without this script the pages refresh
// themselves every few seconds (a meta refresh), and the view has a Refresh link.

import { swapRegions } from "./regions.js";
import { watchVersion } from "./watch.js";

// Said once the page has stopped following the game, by what the server answered.
const STOPPED = {
  403: "This phone's code no longer opens the game: the scorekeeper made a new one. Scan it to follow again.",
  default: "This page has stopped updating: the game is no longer shared with this phone. Reload it to see why.",
};

/** What a screen reader hears after an update: the totals, e.g. "NS 120, EW 80". */
function totalsInWords(root) {
  return Array.from(root.querySelectorAll("[data-total]"))
    .map((total) => `${total.dataset.total} ${total.textContent.trim()}`).join(", ");
}

function follow(live) {
  const status = document.querySelector("[data-live-status]");
  let version = live.dataset.version;
  watchVersion({
    url: live.dataset.liveUrl,
    every: (Number(live.dataset.poll) || 2) * 1000,
    version: () => version,
    changed(text, etag) {
      const fresh = new DOMParser().parseFromString(text, "text/html");
      version = etag || version;
      if (swapRegions(fresh).length && status) {
        status.textContent = `Updated: ${totalsInWords(document)}.`;
      }
    },
    gone(code) {
      const note = document.createElement("div");
      note.className = "messages live-stopped";
      note.setAttribute("role", "alert");
      const line = note.appendChild(document.createElement("p"));
      line.className = "message error";
      line.textContent = STOPPED[code] || STOPPED.default;
      live.before(note);
    },
  });
}

const live = document.querySelector("[data-live]");
if (live) {
  follow(live);
}
