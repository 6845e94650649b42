// The seat's own hands (an ES module beside table.js): "My hands" asks the server for the
// last hands this seat played (docs/PROTOCOL.md, "hands"), lists them, replays one street
// by street from its log as this seat saw it, on a small felt (the board's cards, each
// seat's cards as known and the chips it put in, the pot) with the live history's words
// (table.js's historyLine: hand names at showdown too), and downloads it as PHH (another
// player's unshown cards are "??" in it: the server writes it, table/history.py).
import { $, element } from "./dom.js";
const STREETS = ["preflop", "flop", "turn", "river", "showdown"];
let hands = [];
let replay = null; // { hand, street }

function build() {
  const box = element("section", { id: "hands-box", "aria-labelledby": "hands-title" });
  box.append(element("h3", { id: "hands-title" }, "My hands"));
  const ask = element("button", { type: "button", id: "my-hands" }, "Show my last hands");
  ask.onclick = () => window.dh.send({ type: "hands", last: 10 });
  box.append(ask, element("ol", { id: "hands" }), element("div", { id: "replay", hidden: "" }));
  $("history-box").after(box);
}

function seatName(entries, seat) {
  const join = entries.find((e) => e.kind === "join" && e.seat === seat);
  const view = window.dh.state && window.dh.state.view;
  const sitting = view && view.seats[seat];
  return join ? join.player : sitting ? sitting.player : People.Seat(seat);
}

function describe(e, entries) {
  return window.dh.historyLine(e, (seat) => seatName(entries, seat));
}

// the chips each entry moves into the pot (its amount), or back out of it (a return)
const INTO_POT = ["ante", "small_blind", "big_blind", "post", "post_dead", "call", "bet", "raise"];

// The felt after the streets shown: the board, each seat's known cards and chips put in
// on the street shown and before it, the pot (the sum of what moved in, less returns).
function felt(parts, street, log) {
  const box = element("div", { class: "replay-felt" });
  const board = element("div", { class: "replay-board", "aria-label": "Board" });
  const seats = new Map();
  let pot = 0;
  const seatOf = (s) => {
    if (!seats.has(s)) seats.set(s, { cards: [], street: 0, total: 0 });
    return seats.get(s);
  };
  parts.slice(0, street + 1).forEach((part, i) => {
    for (const e of part) {
      if (["flop", "turn", "river"].includes(e.kind)) for (const c of e.cards) board.append(window.dh.card(c));
      if ((e.kind === "deal" || e.kind === "show") && e.cards) seatOf(e.seat).cards = e.cards;
      const moved = INTO_POT.includes(e.kind) ? e.amount : e.kind === "return" ? -e.amount : 0;
      if (moved) {
        const s = seatOf(e.seat);
        s.total += moved; pot += moved;
        if (i === street) s.street += moved;
      }
    }
  });
  const rows = element("ol", { class: "replay-seats" });
  for (const [s, known] of [...seats.entries()].sort((a, b) => a[0] - b[0])) {
    const li = element("li", { "data-seat": String(s) }, element("span", { class: "name" }, seatName(log, s)), " ");
    for (const c of known.cards) li.append(window.dh.card(c, true));
    li.append(` put in ${known.total}` + (known.street ? ` (${known.street} on this street)` : ""));
    rows.append(li);
  }
  box.append(board, element("div", { class: "replay-pot" }, `Pot ${pot}`), rows);
  return box;
}

// The hand's entries cut into streets: preflop up to the flop, ..., the showdown from
// the first shown or mucked hand or award on.
function streets(log) {
  const cut = { flop: 1, turn: 2, river: 3, show: 4, muck: 4, award: 4 };
  const parts = STREETS.map(() => []);
  let street = 0;
  for (const e of log) {
    if (e.hand_number === undefined) continue; // the table's own entries
    if (e.kind in cut) street = Math.max(street, cut[e.kind]);
    parts[street].push(e);
  }
  return parts;
}

function renderList() {
  const list = $("hands"); list.textContent = "";
  for (const hand of hands) {
    const li = element("li");
    li.dataset.hand = hand.number;
    const award = hand.log.filter((e) => e.kind === "award").map((e) => `${seatName(hand.log, e.seat)} won ${e.amount}`);
    li.append(`Hand #${hand.number}` + (award.length ? `: ${award.join(", ")}` : ""), " ");
    const play = element("button", { type: "button", "data-replay": hand.number }, "Replay");
    play.onclick = () => { replay = { hand, street: 0 }; renderReplay(); };
    const file = new Blob([hand.phh], { type: "text/plain" });
    const link = element("a", { download: `hand-${hand.number}.phh`, "data-phh": hand.number }, "PHH");
    link.href = URL.createObjectURL(file);
    li.append(play, " ", link);
    list.append(li);
  }
}

function renderReplay() {
  const box = $("replay"); box.textContent = ""; box.hidden = replay === null;
  if (!replay) return;
  const parts = streets(replay.hand.log);
  const last = parts.reduce((found, part, i) => (part.length ? i : found), 0);
  const street = Math.min(replay.street, last);
  box.append(element("h4", {}, `Hand #${replay.hand.number}: ${STREETS[street]}`));
  const lines = element("ol", { class: "replay-lines" });
  parts.slice(0, street + 1).forEach((part, i) => {
    for (const e of part) {
      const text = describe(e, replay.hand.log);
      if (text !== null) {
        const li = element("li", {}, text);
        if (i === street) li.className = "now";
        lines.append(li);
      }
    }
  });
  const back = element("button", { type: "button", "data-step": "back" }, "◀ Street");
  back.disabled = street === 0;
  back.onclick = () => { replay.street = street - 1; renderReplay(); };
  const next = element("button", { type: "button", "data-step": "next" }, "Street ▶");
  next.disabled = street === last;
  next.onclick = () => { replay.street = street + 1; renderReplay(); };
  const close = element("button", { type: "button", "data-step": "close" }, "Close");
  close.onclick = () => { replay = null; renderReplay(); };
  box.append(felt(parts, street, replay.hand.log), lines, back, " ", next, " ", close);
}

function receive(m) {
  if (m.type === "hands") { hands = m.hands.slice().reverse(); renderList(); }
  if (m.type === "state" || m.type === "update") $("hands-box").hidden = window.dh.seat === null;
}

build();
window.addEventListener("dh:message", (event) => receive(event.detail));
if (window.dh && window.dh.state) receive(window.dh.state);
