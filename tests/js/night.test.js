// A club night's page follows the night, but leaves alone the part holding the field the director is filling in.
import assert from "node:assert/strict";
import { test } from "node:test";

import { inUse } from "../../static/live/night.js";

// A region of the page and the elements in it, as far as inUse looks at them.
function region(...inside) {
  const body = { name: "body" };
  return {
    ownerDocument: { body },
    body,
    contains: (element) => inside.includes(element),
  };
}

const field = (selector) => ({ matches: (wanted) => wanted.split(", ").includes(selector) });

test("a region holding the field in use is kept", () => {
  const typing = field("input");
  assert.equal(inUse(region(typing), typing), true);
  const choosing = field("select");
  assert.equal(inUse(region(choosing), choosing), true);
});

test("a region is swapped when the focus is elsewhere, on a button, or nowhere", () => {
  const elsewhere = field("input");
  assert.equal(inUse(region(), elsewhere), false);
  const button = field("button");
  assert.equal(inUse(region(button), button), false);
  const page = region();
  assert.equal(inUse(page, page.body), false);
  assert.equal(inUse(page, null), false);
});
