// What the server said about the game when it drew the page (the #table-facts JSON): its id, seats,
// who deals next, how many hands it has, who is signed in.

/** The facts in the page, or null on a page without a game to score. */
export function readFacts(within = document) {
  const data = within.getElementById("table-facts");
  return data ? JSON.parse(data.textContent) : null;
}

/** The seat dealing the hand that comes ``ahead`` hands after the next one on the server. */
export function dealerAfter(facts, ahead) {
  const seats = facts.seats;
  return seats[(seats.indexOf(facts.nextDealer) + ahead) % seats.length];
}
