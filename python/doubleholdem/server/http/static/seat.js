// The seat's lifecycle on the browser table (issue 20, docs/tables.md): sitting out and
// coming back (posting the blinds missed meanwhile, or waiting for the big blind: RULES.md
// TH-37), leaving, and what each seat is doing (sitting out, away, leaving after this
// hand). table.js calls install once (with its function that sends a seat request and
// shows its answer), note for each seat, render with each view, and leftText when the
// seat is let go.
"use strict";
window.SeatLifecycle = (function () {
  const $ = (id) => document.getElementById(id);

  function install(request) {
    $("sit-out").onclick = () => request({ type: "sit_out" });
    $("sit-in").onclick = () => request({ type: "sit_in" });
    $("sit-in-wait").onclick = () => request({ type: "sit_in", wait: true });
    $("leave").onclick = () => request({ type: "leave" });
  }

  // What a seat is doing, as the table shows it to everyone ("" when it simply plays).
  function note(s) {
    if (s.leaving) return "leaving after this hand";
    if (s.sitting_out) return s.away ? "sitting out, away" : "sitting out";
    if (s.away) return "away";
    if (s.waiting_for_big_blind) return "waiting for the big blind";
    return "";
  }

  // The seat tools for the player's own seat (mine: its public state, or null).
  function render(mine) {
    const out = Boolean(mine && mine.sitting_out);
    const owes = Boolean(mine && (mine.missed_big || mine.missed_small));
    $("sit-out").hidden = !mine || out || Boolean(mine.leaving);
    $("sit-in").hidden = !out;
    $("sit-in").textContent = owes ? "Sit in, post the missed blinds" : "Sit in";
    $("sit-in-wait").hidden = !out || !owes;
    $("seat-state").textContent = mine ? note(mine) : "";
  }

  // The status line when the server lets the seat go (a "left" message): leaving after
  // the hand being played, or gone with the chips it took away (its cash-out).
  function leftText(m) {
    if (m.after_hand) return `${People.seat(m.seat)}: leaving after this hand`;
    if (typeof m.cash_out === "number") return `you left the table with ${m.cash_out} chips`;
    return "you left the table";
  }

  return { install, note, render, leftText };
})();
