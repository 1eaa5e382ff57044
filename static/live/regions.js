// The parts of a page the server has drawn again, swapped in without moving what the viewer is looking at:
// whatever is at the top of the screen stays where it was (however much was added above it), the focus
// stays on the same control, and what the viewer opened or closed (a hand's trail, an explanation) stays so.
// A page marks its parts ``data-region`` with an id; a part the server draws the same is left alone.

/**
 * How far to scroll so that what the viewer was looking at is where it was: ``before`` lists what was on
 * the screen (``{ key, top }``, top to bottom), ``after`` where each key is now (a Map of key to top). The
 * first one still there decides; nothing moves when none is.
 */
export function scrollCorrection(before, after) {
  const kept = before.find((box) => after.has(box.key));
  return kept ? after.get(kept.key) - kept.top : 0;
}

/** What is on a screen ``height`` high, of ``boxes`` (``{ key, top, bottom }``), in their order. */
export function onScreen(boxes, height) {
  return boxes.filter((box) => box.bottom > 0 && box.top < height);
}

/**
 * The parts on the screen in the order they should anchor the view: the innermost first (a hand's card
 * rather than the history that holds it, whose top moves with nothing), each kind in page order.
 */
export function anchors(shown) {
  return [...shown.filter((box) => !box.holds), ...shown.filter((box) => box.holds)];
}

/** A name for ``element`` that its new drawing shares: its id, else its place under the nearest id. */
export function keyOf(element, root) {
  if (element.id) {
    return `#${element.id}`;
  }
  const owner = element.parentElement && element.parentElement.closest("[id]");
  const within = owner || root;
  const same = Array.from(within.querySelectorAll(element.tagName));
  return `${owner ? `#${owner.id}` : ""} ${element.tagName}:${same.indexOf(element)}`;
}

function find(key) {
  const [owner, place] = key.includes(" ") ? key.split(" ") : [key, null];
  const within = owner ? document.getElementById(owner.slice(1)) : document;
  if (!within || place === null) {
    return within;
  }
  const [tag, index] = place.split(":");
  return within.querySelectorAll(tag)[Number(index)] || null;
}

function regionsOf(root) {
  return Array.from(root.querySelectorAll("[data-region][id]"));
}

// What the viewer sees and has done, before a swap: where the parts on the screen are, which control has
// the focus, which folds are open.
function viewOf(regions) {
  const marked = regions.flatMap((region) => [region, ...region.querySelectorAll("[id]")]);
  const boxes = marked.map((element) => {
    const box = element.getBoundingClientRect();
    return { key: `#${element.id}`, top: box.top, bottom: box.bottom, holds: Boolean(element.querySelector("[id]")) };
  });
  const active = document.activeElement;
  const focused = active && active !== document.body && regions.some((region) => region.contains(active))
    ? keyOf(active, document) : null;
  const folds = regions.flatMap((region) => Array.from(region.querySelectorAll("details")))
    .map((fold) => [keyOf(fold, document), fold.open]);
  return { shown: anchors(onScreen(boxes, window.innerHeight)), focused, folds };
}

function restore(view) {
  view.folds.forEach(([key, open]) => {
    const fold = find(key);
    if (fold && fold.tagName === "DETAILS" && fold.open !== open) {
      fold.open = open;
    }
  });
  const after = new Map();
  view.shown.forEach((box) => {
    const element = find(box.key);
    if (element) {
      after.set(box.key, element.getBoundingClientRect().top);
    }
  });
  const delta = scrollCorrection(view.shown, after);
  if (delta) {
    window.scrollBy(0, delta);
  }
  if (view.focused && (document.activeElement === document.body || !document.activeElement)) {
    const control = find(view.focused);
    if (control && control.focus) {
      control.focus({ preventScroll: true });
    }
  }
}

/**
 * Swap in ``fresh``'s parts (a parsed page or fragment) for the page's own. ``keep(region)``: leave this one
 * as it is (the scorekeeper's half-entered hand); ``drop(region)``: remove a part ``fresh`` does not have
 * (else it stays). Returns the parts swapped.
 */
export function swapRegions(fresh, { keep = () => false, drop = () => false } = {}) {
  const regions = regionsOf(document);
  const view = viewOf(regions);
  const swapped = [];
  regions.forEach((region) => {
    if (keep(region)) {
      return;
    }
    const replacement = fresh.getElementById(region.id);
    if (!replacement) {
      if (drop(region)) {
        region.remove();
        swapped.push(region.id);
      }
      return;
    }
    if (!replacement.isEqualNode(region)) {
      region.replaceWith(document.importNode(replacement, true));
      swapped.push(region.id);
    }
  });
  if (swapped.length) {
    restore(view);
  }
  return swapped;
}
