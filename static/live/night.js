// A club night's page follows the night: every couple of seconds it asks whether anything changed (a 304 when
// nothing did) and swaps in the parts the server now draws: the player's guide card when the next round starts,
// the tables' progress, the standings, the director's next step. A part holding the control the viewer is using
// is left as it is. Without this script the player's page refreshes itself (a meta refresh).

import { swapRegions } from "./regions.js";
import { watchVersion } from "./watch.js";

/** Whether ``region`` holds the control the viewer is using (a field they are filling in): leave it alone. */
export function inUse(region, active) {
  return Boolean(active && active !== region.ownerDocument.body && region.contains(active)
    && active.matches("input, select, textarea"));
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
      const swapped = swapRegions(fresh, { keep: (region) => inUse(region, document.activeElement) });
      const guide = document.querySelector("[data-guide]");
      if (swapped.includes("guide") && guide && status) {
        status.textContent = guide.textContent.trim();
      }
    },
    gone() {
      const note = document.createElement("div");
      note.className = "messages live-stopped";
      note.setAttribute("role", "alert");
      const line = note.appendChild(document.createElement("p"));
      line.className = "message error";
      line.textContent = "This page has stopped updating: the night's code was renewed. Scan the new one.";
      live.before(note);
    },
  });
}

const live = globalThis.document && document.querySelector("[data-night-live]");
if (live) {
  follow(live);
}
