// Groups of numbers with a known sum (Spades' tricks add up to 13): a running count, and once all but
// one are chosen by the scorekeeper, the last is what is left. The seat the page filled in follows every
// change of the others (by tap or by arrow keys) until the scorekeeper picks it.

/**
 * What the page fills in, given each member of a group adding up to ``total``: ``{value, filled,
 * options}`` (the number chosen or null, whether the page chose it, the numbers it may take). Returns
 * ``{index, value}``: member ``index`` takes ``value`` (null: it is cleared, no number fits), or null
 * when nothing is to change.
 *
 *     fillFor([{value: 5}, {value: 3}, {value: 4}, {value: 2, filled: true, options}], 13)
 *     // => {index: 3, value: 1}
 */
export function fillFor(members, total) {
  const open = members.map((member, index) => (member.value === null || member.filled ? index : -1))
    .filter((index) => index >= 0);
  if (open.length !== 1) {
    return null;
  }
  const [index] = open;
  const others = members.reduce((sum, member, at) => (at === index ? sum : sum + member.value), 0);
  const rest = total - others;
  const value = members[index].options.includes(rest) ? rest : null;
  return value === members[index].value ? null : { index, value };
}

/** The running count of a group: "13 of 13", and whether it is short, right or over. */
export function countOf(values, total) {
  const sum = values.reduce((all, value) => all + (value ?? 0), 0);
  const state = sum === total ? "ok" : sum > total ? "over" : "under";
  let words = `${sum} of ${total}`;
  if (values.every((value) => value !== null) && sum !== total) {
    words += sum > total ? " — too many" : " — too few";
  }
  return { words, state };
}

function membersOf(group) {
  return Array.from(group.querySelectorAll("fieldset.chips"));
}

function valueOf(fieldset) {
  const input = fieldset.querySelector("input:checked");
  return input ? parseInt(input.value, 10) : null;
}

/** Show each group's count under ``within``. */
export function updateSums(within = document) {
  within.querySelectorAll("[data-sum]").forEach((group) => {
    const out = group.querySelector(".sum-count");
    if (!out) {
      return;
    }
    const count = countOf(membersOf(group).map(valueOf), parseInt(group.dataset.sum, 10));
    out.hidden = false;
    out.textContent = count.words;
    out.className = `sum-count ${count.state}`;
  });
}

/** The fields the page filled in (not the scorekeeper), to keep them so across a reload. */
export function filledFields(within) {
  return Array.from(within.querySelectorAll("[data-sum] fieldset.chips[data-filled]"))
    .map((fieldset) => fieldset.dataset.field);
}

export function markFilled(within, fields) {
  within.querySelectorAll("[data-sum] fieldset.chips").forEach((fieldset) => {
    if (fields.includes(fieldset.dataset.field) && fieldset.querySelector("input:checked")) {
      fieldset.dataset.filled = "1";
    } else {
      delete fieldset.dataset.filled;
    }
  });
}

let filling = false;

function fill(group) {
  const fieldsets = membersOf(group);
  const members = fieldsets.map((fieldset) => ({
    value: valueOf(fieldset),
    filled: "filled" in fieldset.dataset,
    options: Array.from(fieldset.querySelectorAll("input"), (input) => parseInt(input.value, 10)),
  }));
  const change = fillFor(members, parseInt(group.dataset.sum, 10));
  if (!change) {
    return;
  }
  const fieldset = fieldsets[change.index];
  const input = change.value === null ? fieldset.querySelector("input:checked")
    : fieldset.querySelector(`input[value="${change.value}"]`);
  input.checked = change.value !== null;
  if (change.value === null) {
    delete fieldset.dataset.filled;
  } else {
    fieldset.dataset.filled = "1";
  }
  // Told like any change (the draft is kept, the step's Next follows), but not taken as the scorekeeper's pick.
  filling = true;
  try {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  } finally {
    filling = false;
  }
}

/** Fill in and count the groups with a known sum under ``root`` as the scorekeeper changes them. */
export function watchSums(root = document) {
  root.addEventListener("change", (event) => {
    const group = event.target.closest("[data-sum]");
    if (!group) {
      return;
    }
    if (!filling && event.target.matches("input[type=radio]")) {
      delete event.target.closest("fieldset.chips").dataset.filled;  // the scorekeeper's own pick
      fill(group);
    }
    updateSums(root);
  });
  updateSums(root);
}
