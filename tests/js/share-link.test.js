// An invitation link copied from the phone: by the clipboard API where the page may use it, else by
// selecting the field's text and copying it the old way.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { copy } from "../../static/share-link.js";

const LINK = "https://club.example/invitations/abc/";

function linkField() {
  return { value: LINK, selected: false, select() { this.selected = true; } };
}

function oldWayCopies(works) {
  const copied = [];
  globalThis.document = { execCommand: (command) => { copied.push(command); return works; } };
  return copied;
}

describe("copying an invitation link", () => {
  afterEach(() => { delete globalThis.document; });

  test("the clipboard gets the link, and the field is left as it was", async () => {
    const written = [];
    const field = linkField();
    const copied = oldWayCopies(true);
    assert.equal(await copy(field, { writeText: async (text) => { written.push(text); } }), true);
    assert.deepEqual(written, [LINK]);
    assert.equal(field.selected, false);
    assert.deepEqual(copied, []);
  });

  test("a clipboard that refuses (no permission) falls back to selecting and copying", async () => {
    const field = linkField();
    const copied = oldWayCopies(true);
    const refusing = { writeText: async () => { throw new Error("NotAllowedError"); } };
    assert.equal(await copy(field, refusing), true);
    assert.equal(field.selected, true);
    assert.deepEqual(copied, ["copy"]);
  });

  test("no clipboard API (a plain-http address) selects the text and copies it", async () => {
    const field = linkField();
    oldWayCopies(true);
    assert.equal(await copy(field, null), true);
    assert.equal(field.selected, true);
  });

  test("when nothing can copy, the link is left selected and the page is told so", async () => {
    const field = linkField();
    oldWayCopies(false);
    assert.equal(await copy(field, null), false);
    assert.equal(field.selected, true);
  });
});
