// The new-game form's seats in one tap each: the players are chips, tapped in seat order (North, East,
// South, West); tapping a seated player frees the seat. The four selects stay the form's fields (and the
// whole form without this script); a seat with a new player's name typed in counts as taken.

export const SEAT_ORDER = ["N", "E", "S", "W"];
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };

// ``seats``: seat -> player id ("" when empty); ``typed``: the seats with a new player's name. The seats
// after ``player`` is tapped, or null when every seat is taken and the player has none.
export function tap(seats, player, typed = []) {
  const next = { ...seats };
  const at = SEAT_ORDER.find((seat) => next[seat] === player);
  if (at) {
    next[at] = "";
    return next;
  }
  const free = SEAT_ORDER.find((seat) => !next[seat] && !typed.includes(seat));
  if (!free) { return null; }
  next[free] = player;
  return next;
}

// The seat the next tap fills, or null when all four are taken.
export function nextSeat(seats, typed = []) {
  return SEAT_ORDER.find((seat) => !seats[seat] && !typed.includes(seat)) || null;
}

function enhance(picker) {
  const form = picker.closest("form");
  const selects = Object.fromEntries(SEAT_ORDER.map((seat) => [seat, form.elements[`seat_${seat}`]]));
  if (SEAT_ORDER.some((seat) => !selects[seat])) { return; }
  const players = Array.from(selects.N.options).filter((option) => option.value);
  if (!players.length) { return; }

  const seats = () => Object.fromEntries(SEAT_ORDER.map((seat) => [seat, selects[seat].value]));
  const typed = () => SEAT_ORDER.filter((seat) => (form.elements[`new_${seat}`] || {}).value);

  const chips = document.createElement("div");
  chips.className = "seat-chips";
  chips.setAttribute("role", "group");
  chips.setAttribute("aria-label", "Players: tap them in seat order");
  const hint = document.createElement("p");
  hint.className = "seat-next";
  hint.setAttribute("aria-live", "polite");
  const buttons = players.map((option) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.player = option.value;
    button.append(option.textContent);
    // Shown as the seat's letter, read as its name.
    const tag = document.createElement("span");
    tag.className = "seat-tag";
    tag.setAttribute("aria-hidden", "true");
    const said = document.createElement("span");
    said.className = "visually-hidden";
    button.append(tag, said);
    button.addEventListener("click", () => {
      const after = tap(seats(), option.value, typed());
      if (!after) {
        hint.textContent = "All four seats are taken: tap a seated player to free their seat.";
        return;
      }
      SEAT_ORDER.forEach((seat) => {
        if (selects[seat].value !== after[seat]) {
          selects[seat].value = after[seat];
          selects[seat].dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
      show();
    });
    chips.append(button);
    return button;
  });

  function show() {
    const now = seats();
    buttons.forEach((button) => {
      const seat = SEAT_ORDER.find((one) => now[one] === button.dataset.player);
      button.setAttribute("aria-pressed", seat ? "true" : "false");
      button.querySelector(".seat-tag").textContent = seat || "";
      button.querySelector(".visually-hidden").textContent = seat ? `, ${SEAT_NAMES[seat]}` : "";
    });
    const next = nextSeat(now, typed());
    hint.textContent = next ? `Next: ${SEAT_NAMES[next]}` : "Everyone has a seat.";
  }

  // The chips say who sits where: the selects give way, unless the server marked one of them.
  const grid = picker.querySelector(".seat-grid");
  grid.before(chips, hint);
  grid.hidden = !grid.querySelector(".invalid");
  form.addEventListener("change", show);
  form.addEventListener("input", show);
  // Shown again by Back or the page cache: the selects may hold what the browser restored.
  window.addEventListener("pageshow", show);
  show();
}

if (typeof document !== "undefined") {
  document.querySelectorAll("[data-seat-picker]").forEach(enhance);
}
