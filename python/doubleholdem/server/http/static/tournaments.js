// The tournaments of the room (docs/room-tournaments.md): the lobby (structure, entrants,
// prize pool), one tournament's page (payouts, places and prizes, the level and its
// clock, hand-for-hand, the player's moves between tables, a deal by ICM) and the
// player's own tournament table, over a WebSocket of its own (docs/PROTOCOL.md,
// "Tournaments"): the lobby and the open tournament are pushed as they change (the
// tournament as patches of the view held), and every request goes over the same socket.
// Nothing is polled; a lost connection is opened again and asks anew. Tables and seats
// are numbered from 1 for people. Every text from the server goes in through
// textContent, never as HTML.

import { $, element } from "./dom.js";

const V = 2;
let ws = null;
let retry = 500;
let open = null; // the id of the tournament shown
let view = null; // its view, as the server sent it and patched it
let received = 0; // when the view's level clock last changed (our clock, seconds)
let clockSeen = ""; // that clock
let seenMove = null; // the last move told
let counter = 0;
let live = []; // the tournaments not over, as the lobby last said
let over = []; // the tournaments over shown: the lobby's newest page, then those asked for
let overNext = null; // the id below which the next page of those over starts (null: none)
function ordinal(n) { // 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

// A room may be served by many processes, one of which runs the tournaments
// (docs/postgres.md): another answers a tournament message "elsewhere" with its address,
// and the page opens its socket there and sends the request again. When that socket
// drops (the process stopped or died), the page asks its own process (home) again,
// which says where the tournaments run now once another process took them over.
const home = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
let target = null; // the socket URL of the process running the tournaments, null: home
let following = false; // closing the socket to follow an "elsewhere"
let resend = null; // the request answered "elsewhere": sent again where they run

function send(message) {
  if (!["tournament_lobby", "tournament_watch"].includes(message.type)) resend = message;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: V, ...message }));
  else note("the server cannot be reached: try again in a moment");
}

function connect() {
  ws = new WebSocket(target || home);
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onopen = () => { retry = 500; };
  ws.onclose = () => {
    if (following) { following = false; connect(); return; } // to the tournaments' process
    target = null; // dropped: ask home where the tournaments run now
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function ask() { // the lobby and the open tournament, anew (and a request moved here)
  send({ type: "tournament_lobby" });
  if (open !== null) send({ type: "tournament_watch", tournament: open });
  if (resend) { const again = resend; resend = null; send(again); }
}

function follow(m) {
  if (!m.address) { // nobody runs them this moment: ask again after a while
    note("the tournaments are moving to another server…");
    setTimeout(ask, retry);
    retry = Math.min(retry * 2, 5000);
    return;
  }
  const url = m.address.replace(/^http/, "ws").replace(/\/+$/, "") + "/ws";
  target = url === home ? null : url;
  following = true;
  ws.close();
}

function receive(m) {
  switch (m.type) {
    case "welcome": ask(); break;
    case "elsewhere": if (m.tournaments) follow(m); break;
    case "tournament_lobby":
      live = m.tournaments; over = m.over || []; overNext = m.next ?? null; showLobby();
      break;
    case "tournaments_over": { // the next page of those over: added below the others
      const shown = new Set(over.map((t) => t.id));
      over = over.concat(m.tournaments.filter((t) => !shown.has(t.id)));
      overNext = m.next; showLobby();
      break;
    }
    case "tournament":
      if (m.tournament === open) { view = m.view; showTournament(view); }
      break;
    case "tournament_update":
      if (m.tournament === open && view) { view = Patch.apply(view, m.patch); showTournament(view); }
      break;
    case "result": resend = null; if (m.tournament !== undefined) note(""); break;
    case "error":
      resend = null;
      if (m.code !== "no_tournament" || open !== null) note(m.message);
      break;
    default: break;
  }
}

function note(text) { $("tournament-note").textContent = text; }

function request(id, what, fields) {
  send({ type: `tournament_${what}`, tournament: id, ...(fields || {}) });
}

function watch(id) {
  open = id; view = null;
  send({ type: "tournament_watch", tournament: id });
}

function button(text, attributes, onclick) {
  const b = element("button", { type: "button", ...attributes }, text);
  b.onclick = onclick;
  return b;
}

function blinds(b) { return `${b.small}/${b.big}${b.ante ? ` ante ${b.ante}` : ""}`; }

function lobbyRow(t) {
  const status = t.status === "registering" ? `registering ${t.entrants}/${t.capacity}` : t.status;
  return element("tr", { "data-tournament-row": String(t.id) },
    element("td", {}, t.name),
    element("td", {}, `${t.kind}, ${t.variant} ${t.betting}`),
    element("td", {}, `${t.buy_in}+${t.fee}`),
    element("td", {}, status),
    element("td", {}, String(t.pool)),
    element("td", {}, `level ${t.level}: ${blinds(t.blinds)}`),
    element("td", {},
      t.status === "registering"
        ? button("Register", { "data-register": String(t.id) }, () => request(t.id, "register"))
        : "",
      " ",
      button("Open", { "data-open": String(t.id) }, () => watch(t.id))));
}

function clockText(view) {
  const c = view.clock;
  let left = "";
  if (c.hands_left !== undefined && c.hands_left !== null) left = `, ${c.hands_left} hands left`;
  if (c.ends_in !== undefined && c.ends_in !== null) {
    const s = Math.max(0, Math.ceil(c.ends_in - (Date.now() / 1000 - received)));
    left = `, ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} left`;
  }
  const level = view.structure[c.level - 1];
  return `${c.on_break ? "Break after level" : "Level"} ${c.level}: ${blinds(level)}${left}`;
}

function entriesTable(view) {
  const rows = view.entries.map((e) => element("tr", {},
    element("td", {}, e.place ? ordinal(e.place) : ""),
    element("td", {}, e.player + (e.bot ? " (bot)" : "")),
    element("td", {}, e.chips === null ? "" : String(e.chips)),
    element("td", {}, e.table ? `table ${e.table}, seat ${e.seat + 1}` : ""),
    element("td", {}, e.prize ? String(e.prize) : "")));
  return element("table", { id: "tournament-entries" },
    element("thead", {}, element("tr", {}, ...["Place", "Player", "Chips", "Seat", "Prize"].map((h) => element("th", {}, h)))),
    element("tbody", {}, ...rows));
}

function dealBox(view) {
  const deal = view.deal;
  const me = view.me;
  const box = element("div", { id: "tournament-deal" });
  const playing = view.status === "running" && me && me.registered && me.place === null;
  if (!deal) {
    if (playing && view.tables.length === 1)
      box.append(button("Ask for a deal", { id: "deal-ask" }, () => request(view.id, "deal", { answer: "ask" })));
    return box;
  }
  if (deal.amounts === null) {
    box.append(`${deal.by} asks for a deal: the table stops after this hand`);
    return box;
  }
  const names = Object.fromEntries(view.entries.map((e) => [String(e.entry), e.player]));
  const lines = Object.entries(deal.amounts).filter(([e]) => deal.players.includes(names[e]))
    .map(([e, amount]) => element("li", {}, `${names[e]}: ${amount}${deal.accepted.includes(names[e]) ? " (accepts)" : ""}`));
  box.append(element("p", {}, view.ended_by === "deal" ? "Deal made (ICM):" : "Deal offered (ICM):"), element("ul", {}, ...lines));
  if (view.status === "running" && me && deal.players.includes(me.player) && !deal.accepted.includes(me.player)) {
    box.append(button("Accept the deal", { id: "deal-accept" }, () => request(view.id, "deal", { answer: "accept" })), " ",
      button("Decline", { id: "deal-decline" }, () => request(view.id, "deal", { answer: "decline" })));
  }
  return box;
}

function myTable(view) {
  const me = view.me;
  const box = element("div", { id: "tournament-table" });
  if (!me || !me.view) return box;
  const seen = me.view;
  const hand = seen.hand;
  box.append(element("h3", {}, `Your table: table ${me.table}, seat ${me.seat + 1}, hand ${seen.hand_number}`));
  const seats = seen.seats.map((s, i) => s === null ? null : element("li", { class: i === me.seat ? "t-seat mine" : "t-seat" },
    `${i + 1}. ${s.player} ${s.stack}${seen.to_act === i ? " (to act)" : ""}${seen.button === i ? " (button)" : ""}`)).filter(Boolean);
  box.append(element("ul", { id: "t-seats" }, ...seats));
  if (hand) {
    box.append(element("p", { id: "t-board" }, `Board: ${hand.board.join(" ") || "-"}, pot ${hand.pot}`),
      element("p", { id: "t-hole" }, `Your cards: ${(hand.hole || []).join(" ")}`));
    const legal = hand.legal;
    if (legal) box.append(actions(view.id, seen.hand_number, legal));
  }
  return box;
}

function actions(id, hand, legal) {
  const act = (action, amount) => request(id, "act",
    { id: `t${++counter}`, hand, action, amount: amount === undefined ? null : amount });
  const box = element("div", { id: "t-actions" });
  if (legal.points && legal.points.length) {
    legal.points.forEach((p, i) => box.append(button(`Point card ${i + 1}`, {}, () => act("point", i)), " "));
    return box;
  }
  if (legal.can_fold) box.append(button("Fold", { "data-act": "fold" }, () => act("fold")), " ");
  if (legal.can_check) box.append(button("Check", { "data-act": "check" }, () => act("check")), " ");
  if (legal.call_amount) box.append(button(`Call ${legal.call_amount}`, { "data-act": "call" }, () => act("call")), " ");
  if (legal.min_raise_to !== null) {
    const word = legal.is_bet ? "bet" : "raise";
    const amount = element("input", { id: "t-amount", type: "number", min: String(legal.min_raise_to), max: String(legal.max_raise_to), value: String(legal.min_raise_to), "aria-label": "Amount in chips" });
    box.append(amount, " ", button(legal.is_bet ? "Bet" : "Raise to", { "data-act": word }, () => act(word, Number(amount.value))));
  }
  return box;
}

function tellMove(view) {
  const move = view.me && view.me.last_move;
  const line = $("tournament-move");
  if (!move) return;
  const key = JSON.stringify(move);
  const text = `You moved from table ${move.from_table}, seat ${move.from_seat + 1} to table ${move.to_table}, seat ${move.to_seat + 1}${move.broken ? " (your table broke)" : ""}`;
  if (key !== seenMove || !line.textContent) { seenMove = key; line.textContent = text; }
}

function showState(view) {
  const clock = JSON.stringify(view.clock);
  if (clock !== clockSeen) { clockSeen = clock; received = Date.now() / 1000; } // counts down from here
  let state = `${view.status}${view.ended_by ? ` (${view.ended_by})` : ""}, ${view.entrants} entrants, ${view.left} left, prize pool ${view.pool}`;
  if (view.status === "running") state += `. ${clockText(view)}`;
  if (view.hand_for_hand) state += ". Hand-for-hand";
  $("tournament-state").textContent = state;
}

function showTournament(view) {
  const section = $("tournament");
  section.hidden = false;
  $("tournament-title").textContent = `${view.name} (tournament ${view.id + 1})`;
  const me = view.me;
  showState(view);
  $("tournament-payouts").replaceChildren(...view.payouts.map((p, i) => element("li", {}, `${ordinal(i + 1)}: ${p}`)));
  const mine = $("tournament-mine");
  mine.replaceChildren();
  const over = view.status === "finished" || view.status === "cancelled";
  if (me && me.registered && me.place) mine.append(`You finished ${ordinal(me.place)}${me.prize ? `, prize ${me.prize}` : ""}`);
  else if (me && me.registered && over) mine.append(`Your share of the pool: ${me.prize}`);
  if (me && me.registered && view.status === "registering")
    mine.append(button("Unregister", { id: "unregister" }, () => request(view.id, "unregister")));
  tellMove(view);
  $("tournament-body").replaceChildren(dealBox(view), myTable(view), entriesTable(view));
}

function showLobby() {
  const list = [...live, ...over];
  if (!list.length) return;
  $("tournaments").hidden = false;
  $("tournament-list").replaceChildren(...list.map(lobbyRow));
  const more = $("tournaments-more");
  more.hidden = overNext === null;
  more.onclick = () => send({ type: "tournaments_over", before: overNext });
}

connect();
setInterval(() => { if (view && view.status === "running") showState(view); }, 1000); // the clock
