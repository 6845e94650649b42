// The doubleholdem browser table: plain JavaScript, no libraries. It speaks the
// WebSocket protocol of docs/PROTOCOL.md (version 2) and keeps the seat token in
// sessionStorage: a reload reconnects to the same seat, and each tab holds its own (a
// second tab opens on the lobby instead of taking the first tab's seat and orphaning it).
"use strict";
(function () {
  const V = 2;
  const $ = (id) => document.getElementById(id);
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  const store = window.sessionStorage;
  let ws = null;
  let state = null; // the last state message
  let offset = 0; // server clock minus ours, seconds
  let seat = null;
  let tableId = null;
  // the act message sent and not yet answered: resent with the same id after a reconnect or
  // a reload, and the server applies it once
  let pending = JSON.parse(store.getItem("dh-pending") || "null");
  function setPending(message) {
    pending = message;
    if (message) store.setItem("dh-pending", JSON.stringify(message));
    else store.removeItem("dh-pending");
  }
  let lobbyTimer = null;
  let retry = 500;
  let counter = 0;
  const session = Math.random().toString(36).slice(2, 10);
  let historyHand = null;

  function status(text) { $("status").textContent = text; }

  // A room may be served by many processes, each table by one (docs/postgres.md): a
  // watch, sit or resume of a table another process serves is answered "elsewhere" with
  // its address, and the page opens its socket there and asks again. When that socket
  // drops, the page asks its own process (home) again: its resume is answered where the
  // table is now. Processes it heard of (the lobby's) are tried when home is down.
  const home = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  let target = null; // the socket URL of the process serving our table, null: home
  let wanted = null; // the last watch, sit or resume sent: sent again where it is served
  let following = false; // closing the socket to follow an "elsewhere"
  let welcomed = false; // the socket open now was welcomed
  let known = []; // the other processes' socket URLs (from the lobby)
  let tried = 0; // sockets that failed in a row (each tries the next process known)

  function socketUrl(address) {
    return address.replace(/^http/, "ws").replace(/\/+$/, "") + "/ws";
  }

  function send(message) {
    if (["watch", "sit", "resume"].includes(message.type)) wanted = message;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: V, ...message }));
  }

  let blocked = null; // why the operator closed this account's pages (frozen or closed)

  function connect() {
    const places = [home, ...known.filter((url) => url !== home)];
    const url = target || places[tried % places.length];
    welcomed = false;
    ws = new WebSocket(url);
    ws.onopen = () => { status(blocked || "connected"); };
    ws.onmessage = (event) => receive(JSON.parse(event.data));
    ws.onclose = () => {
      if (following) { following = false; connect(); return; } // to the table's process
      tried = welcomed ? 0 : tried + 1;
      target = null; // dropped: ask home (or a process known) where the table is now
      if (!wanted && state && seat === null) wanted = { type: "watch", table: state.table };
      status(blocked || "disconnected, reconnecting…"); // a frozen account is told why
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  function follow(m) {
    if (!m.address) { // nobody serves it this moment: ask again after a while
      status("the table is moving to another server…");
      setTimeout(() => { if (wanted) send(wanted); }, retry);
      retry = Math.min(retry * 2, 5000);
      return;
    }
    const url = socketUrl(m.address);
    target = url === home ? null : url;
    following = true;
    ws.close();
  }

  function receive(m) {
    switch (m.type) {
      case "welcome": {
        welcomed = true; tried = 0;
        const token = store.getItem("dh-token");
        if (token) send({ type: "resume", token });
        else if (wanted) send(wanted); // a watch, sit or resume that moved here
        else showLobby();
        break;
      }
      case "elsewhere": follow(m); break;
      case "lobby":
        known = [...new Set(m.tables.filter((t) => t.address).map((t) => socketUrl(t.address)))];
        renderLobby(m.tables);
        break;
      case "seated": // a resume by table (from another window) comes without a token
        retry = 500; wanted = null;
        if (m.token) store.setItem("dh-token", m.token);
        seat = m.seat; tableId = m.table;
        status(`${People.seat(m.seat)} at ${People.table(m.table)}`);
        if (pending) send(pending); // a decision sent before the connection broke: applied once
        break;
      case "state": retry = 500; wanted = null; $("history").textContent = ""; renderState(m); break; // its log starts over
      case "update": // the change since the last state or update: patch the view we hold
        if (state && state.table === m.table) {
          renderState({ ...m, view: Patch.apply(state.view, m.patch), times: state.times });
        }
        break;
      case "result":
        if (pending && m.id === pending.id) setPending(null);
        else if (m.id === null) answered(m);
        break;
      case "error":
        refused(m);
        if (m.code === "bad_token") { store.removeItem("dh-token"); seat = null; wanted = null; showLobby(); }
        break;
      case "left": case "replaced":
        store.removeItem("dh-token"); seat = null;
        if (m.type === "left" && (leavingAfterHand || departing || m.after_hand)) {
          // it watches the hand end; told again, with the cash-out, when the seat goes
          status(SeatLifecycle.leftText(m)); $("seat-tools").hidden = true;
          departing = Boolean(m.after_hand);
        } else {
          status(m.type === "left" ? SeatLifecycle.leftText(m) : "this seat is open in another window");
          showLobby();
        }
        leavingAfterHand = false;
        break;
      default: break;
    }
    window.dispatchEvent(new CustomEvent("dh:message", { detail: m })); // for chat.js, presets.js, history.js
  }

  // ------------------------------------------------------------------ lobby

  function showLobby() {
    $("lobby").hidden = false; $("table").hidden = true; $("to-lobby").hidden = true;
    $("to-table").hidden = seat === null; // the seat is kept: its view comes back on watch
    state = null; tableId = seat === null ? null : tableId;
    send({ type: "lobby" });
    clearInterval(lobbyTimer);
    lobbyTimer = setInterval(() => { if (!$("lobby").hidden) send({ type: "lobby" }); }, 3000);
  }

  function renderLobby(tables) {
    const body = document.querySelector("#tables tbody");
    body.textContent = "";
    for (const t of tables) {
      const row = document.createElement("tr");
      const players = t.seats.filter((s) => s).length;
      const open = t.seats.length - players;
      cells(row, [People.Table(t.id), `${t.variant === "double" ? "Double" : "Texas"} Hold'em, ${t.structure}`,
        `${t.blinds[0]}/${t.blinds[1]}`, `${players}/${t.seats.length}`, `#${t.hand_number}`]);
      row.title = t.idle || ""; // why no hand is played there (the host reads it too)
      const td = document.createElement("td");
      const watch = button("Watch", () => {
        if (seat !== null && t.id !== tableId) { note("lobby-note", "one seat per window: leave your seat to watch another table", true); return; }
        tableId = t.id; send({ type: "watch", table: t.id });
      });
      watch.dataset.watch = t.id;
      const sit = button("Sit", () => sitDown(t, null));
      sit.dataset.sit = t.id;
      sit.disabled = open === 0;
      td.append(watch, " ", sit);
      row.append(td);
      body.append(row);
      if (!$("buyin").value) $("buyin").value = t.buy_in[1];
    }
  }

  function sitDown(t, seatNumber) {
    const name = $("name").value.trim();
    if (!name) { status($("name").dataset.missing || "enter your name first"); $("name").focus(); return; }
    store.setItem("dh-name", name);
    const buyIn = parseInt($("buyin").value, 10) || (t ? t.buy_in[1] : 1000);
    send({ type: "sit", table: t ? t.id : tableId, seat: seatNumber, name, buy_in: buyIn });
  }

  function cells(row, values) {
    for (const v of values) { const td = document.createElement("td"); td.textContent = v; row.append(td); }
  }

  function button(text, onclick) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = text; b.onclick = onclick;
    return b;
  }

  function card(name, small) {
    const span = document.createElement("span");
    span.className = "card" + (small ? " small" : "") + ("dh".includes(name[1]) ? " red" : "");
    span.textContent = name[0].replace("T", "10") + SUITS[name[1]];
    span.setAttribute("aria-label", name);
    span.dataset.card = name;
    return span;
  }

  // ------------------------------------------------------------------ the table

  function renderState(m) {
    state = m; tableId = m.table; seat = m.seat;
    offset = m.clock - Date.now() / 1000;
    $("lobby").hidden = true; $("table").hidden = false; $("to-lobby").hidden = false; $("to-table").hidden = true;
    const view = m.view;
    const hand = view.hand;
    const playing = hand && !hand.over;
    $("table-title").textContent = `${People.Table(m.table)}: ${view.variant === "double" ? "Double" : "Texas"} Hold'em, hand #${view.hand_number}`;
    renderSeats(view, hand, playing);
    const board = $("board"); board.textContent = "";
    if (hand) for (const c of hand.board) board.append(card(c));
    $("pot").textContent = hand ? `Pot ${hand.pot}` : "Waiting for players";
    renderHole(view, hand);
    renderActions(view, hand);
    $("seat-tools").hidden = seat === null;
    const mine = seat !== null ? view.seats[seat] : null;
    SeatLifecycle.render(mine);
    $("top-up-box").hidden = !mine || Boolean(playing && hand.in_hand[String(seat)] !== undefined);
    renderPreferences(view.preferences);
    for (const entry of m.log) history(entry, view);
    tick();
  }

  function renderSeats(view, hand, playing) {
    const list = $("seats"); list.textContent = "";
    view.seats.forEach((s, i) => {
      const li = document.createElement("li");
      li.className = "seat"; li.dataset.seat = i;
      if (!s) {
        li.classList.add("open");
        li.append(`${People.Seat(i)}: open`);
        if (seat === null) {
          const b = button("Sit here", () => sitDown(null, i));
          b.dataset.sitSeat = i;
          li.append(b);
        }
        list.append(li); return;
      }
      const key = String(i);
      const inHand = hand && key in hand.in_hand;
      const stack = playing && inHand ? hand.stacks[key] : s.stack;
      if (view.to_act === i) li.classList.add("acting");
      if (i === seat) li.classList.add("mine");
      if (inHand && !hand.in_hand[key]) li.classList.add("folded");
      const name = document.createElement("div"); name.className = "name";
      name.textContent = s.player;
      if (view.button === i) { const d = document.createElement("span"); d.className = "dealer"; d.textContent = "D"; d.title = "button"; name.append(d); }
      li.append(name);
      const doing = SeatLifecycle.note(s);
      const chips = document.createElement("div"); chips.textContent = `${stack} chips` + (doing ? ` (${doing})` : "");
      li.append(chips);
      if (playing && inHand && hand.bets[key]) { const b = document.createElement("div"); b.className = "bet"; b.textContent = `bet ${hand.bets[key]}`; li.append(b); }
      if (hand && hand.shown[key] && i !== seat) {
        const cards = document.createElement("div");
        hand.shown[key].forEach((c, n) => { const e = card(c, true); if (hand.points[key] === n) e.classList.add("point"); cards.append(e); });
        li.append(cards);
      }
      list.append(li);
    });
  }

  function renderHole(view, hand) {
    const hole = $("hole");
    const mine = hand && seat !== null ? hand.hole : [];
    const choosing = Boolean(hand && hand.legal && hand.decision === "point");
    const point = hand && seat !== null ? hand.points[String(seat)] : undefined;
    // drawn again only when it changed: a point card button being clicked, or holding
    // the keyboard's focus, stays the same element while the others act
    const drawn = JSON.stringify([mine, choosing, point === undefined ? null : point]);
    if (hole.dataset.drawn === drawn) return;
    hole.dataset.drawn = drawn; hole.textContent = "";
    $("hole-label").textContent = choosing ? "Choose your point card (DH-5): click it or press 1, 2 or 3" : (mine.length ? "Your cards" : "");
    mine.forEach((c, n) => {
      if (choosing) {
        const b = document.createElement("button");
        b.type = "button"; b.className = card(c).className; b.textContent = card(c).textContent;
        b.dataset.point = n; b.setAttribute("aria-label", `point card ${c}`);
        b.onclick = () => act("point", n);
        hole.append(b);
      } else {
        const e = card(c);
        if (point === n) { e.classList.add("point"); e.title = "point card"; }
        hole.append(e);
      }
    });
  }

  function renderActions(view, hand) {
    const box = $("actions"); box.textContent = "";
    const sizing = $("sizing"); sizing.hidden = true;
    const legal = hand && hand.legal;
    if (!legal || legal.decision !== "bet") return;
    // each legal action once, in the history's words: a call names the chips it puts in,
    // a bet or raise the total it goes to; going all in is the call or the raise that puts
    // the whole stack in (labelled so), never a button of its own (RULES.md TH-14: none in
    // fixed limit unless it is that call or raise)
    const stack = legal.all_in_to - legal.bet;
    if (legal.can_fold) addAction("fold", "Fold", null);
    if (legal.can_check) addAction("check", "Check", null);
    else if (legal.call_amount > 0) {
      const all = legal.call_amount === stack;
      addAction("call", `Call ${legal.call_amount}${all ? ", all in" : ""}`, null).dataset.allIn = all ? "1" : "";
    }
    if (legal.min_raise_to !== null) {
      const kind = legal.is_bet ? "bet" : "raise";
      const range = $("amount"), value = $("amount-value");
      range.min = value.min = legal.min_raise_to; range.max = value.max = legal.max_raise_to;
      range.value = value.value = legal.min_raise_to;
      range.oninput = () => { value.value = range.value; label(); };
      value.oninput = () => { range.value = value.value; label(); };
      const b = addAction(kind, "", () => parseInt(value.value, 10));
      const label = () => {
        const all = parseInt(value.value, 10) === legal.all_in_to;
        b.textContent = `${kind === "bet" ? "Bet" : "Raise to"} ${value.value}${all ? ", all in" : ""}`;
      };
      label();
      if (legal.max_raise_to === legal.all_in_to) b.dataset.allIn = "max";
      sizing.hidden = legal.min_raise_to === legal.max_raise_to;
    }
  }

  function addAction(action, text, amount) {
    const b = button(text, () => act(action, amount ? amount() : null));
    b.dataset.action = action;
    $("actions").append(b);
    return b;
  }

  function act(action, amount) {
    if (!state) return;
    counter += 1;
    const message = { type: "act", id: `${session}-${counter}`, hand: state.view.hand_number, action };
    if (amount !== null && amount !== undefined) message.amount = amount;
    setPending(message);
    send(message);
    $("actions").textContent = ""; $("sizing").hidden = true; note("act-note", "");
  }

  function tick() {
    const el = $("clock");
    if (!state || state.view.deadline === null) { el.textContent = ""; return; }
    const left = Math.max(0, state.view.deadline - (Date.now() / 1000 + offset));
    const who = state.view.to_act === seat ? "You have" : `${People.Seat(state.view.to_act)} has`;
    const bank = state.view.time_bank_running;
    el.className = bank ? "bank" : "";
    el.textContent = `${who} ${left.toFixed(0)} s` + (bank ? " (time bank)" : `; time bank ${state.times.bank} s`);
  }
  setInterval(tick, 250);

  // ------------------------------------------------------------------ history

  // One line of the hand history for each log entry, read from the entry's own fields
  // (docs/events.md): amount is the chips that moved, to the total of a bet or raise, and
  // a shown hand carries its name and, in Double Hold'em, the two cards that played.
  // Nothing here computes a rule. tests/server/test_browser_showdown.py checks every line.
  const POSTS = { ante: "an ante of", small_blind: "the small blind", big_blind: "the big blind", post: "", post_dead: "" };
  function potName(index) { return index === 0 ? "the main pot" : `side pot ${index}`; }
  function historyLine(e, who) {
    const allIn = e.all_in ? ", all in" : "";
    switch (e.kind) {
      case "hand_start": return `Hand #${e.number}: button ${who(e.button)}`;
      case "ante": case "small_blind": case "big_blind":
        return `${who(e.seat)} posts ${POSTS[e.kind]} ${e.amount}${allIn}`;
      case "post": return `${who(e.seat)} posts ${e.amount}${allIn}`;
      case "post_dead": return `${who(e.seat)} posts ${e.amount} dead${allIn}`;
      case "deal": return e.cards ? `${who(e.seat)} is dealt ${e.cards.join(" ")}` : null;
      case "fold": return `${who(e.seat)} folds`;
      case "check": return `${who(e.seat)} checks`;
      case "call": return `${who(e.seat)} calls ${e.amount}${allIn}`;
      case "bet": return `${who(e.seat)} bets ${e.to}${allIn}`;
      case "raise": return `${who(e.seat)} raises to ${e.to}${allIn}`;
      case "return": return `${e.amount} returned to ${who(e.seat)}`;
      case "flop": case "turn": case "river":
        return `${e.kind[0].toUpperCase()}${e.kind.slice(1)}: ${e.cards.join(" ")}`;
      case "point": return e.cards ? `${who(e.seat)} picks point card ${e.cards[0]}` : `${who(e.seat)} picks a point card`;
      case "show": return `${who(e.seat)} shows ${e.cards.join(" ")}` + (e.point !== undefined ? `, point card ${e.cards[e.point]}` : "");
      case "hand":
        return `${who(e.seat)} has ${e.name}` + (e.played ? ` with Hand ${e.hand}, ${e.played.join(" ")}` : "") + ` (${e.cards.join(" ")})`;
      case "muck": return `${who(e.seat)} mucks`;
      case "pot": return `${e.pot === 0 ? "Main pot" : `Side pot ${e.pot}`}: ${e.amount}, for ${e.seats.map(who).join(", ")}`;
      case "rake": return `The house takes ${e.amount} from ${potName(e.pot)}`;
      case "award": return `${who(e.seat)} wins ${e.amount} from ${potName(e.pot)}`;
      case "time_bank": return `${who(e.seat)} uses the time bank`;
      case "timeout": return `${who(e.seat)} ran out of time`;
      case "kill": return `${who(e.seat)} is away: the hand is dead`;
      case "join": return `${e.player} sits down in ${People.seat(e.seat)} with ${e.amount}`;
      case "leave": return `${e.player} leaves with ${e.amount}`;
      case "leaving": return `${who(e.seat)} leaves after this hand`;
      case "sit_out": return `${who(e.seat)} sits out`;
      case "sit_in": return `${who(e.seat)} is back`;
      case "top_up": return `${who(e.seat)} tops up ${e.amount}`;
      case "missed_blind": return `${who(e.seat)} missed the ${e.blind} blind`;
      default: return null;
    }
  }

  function history(e, view) {
    const who = (s) => (view.seats[s] ? view.seats[s].player : People.Seat(s));
    if (e.kind === "hand_start") { $("results").textContent = ""; historyHand = e.number; }
    if (e.kind === "award") $("results").textContent += `${who(e.seat)} wins ${e.amount} from ${potName(e.pot)}. `;
    const text = historyLine(e, who);
    if (text === null) return;
    const li = document.createElement("li");
    li.textContent = text;
    const list = $("history");
    list.append(li);
    while (list.children.length > 300) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  // ------------------------------------------------------------------ requests and their answers

  // Each seat request is answered next to its control: what it did, or why it was refused.
  let asked = null; // the seat request awaiting its answer (its type)
  let leavingAfterHand = false;
  let departing = false; // told "left" after this hand: the next "left" carries the cash-out
  const DONE = { top_up: "chips added", preferences: "saved", sit_in: "you are back in", sit_out: "you sit out from the next hand", leave: "you left your seat" };

  function note(where, text, error) {
    const el = $(where);
    el.textContent = text;
    el.classList.toggle("error", Boolean(error));
  }

  function request(message) {
    asked = message.type;
    note("seat-note", "…");
    send(message);
  }

  function answered(m) {
    if (asked === null) return;
    if (asked === "leave" && m.after_hand) {
      leavingAfterHand = true;
      note("seat-note", "leaving after this hand");
    } else note("seat-note", DONE[asked] || "done");
    asked = null;
  }

  function refused(m) {
    if (m.code === "account_frozen" || m.code === "account_closed") blocked = m.message;
    status(m.message); // words, not codes
    if (m.message.startsWith("chat:")) return; // shown beside the chat's form (chat.js)
    if (pending && m.id === pending.id) {
      setPending(null); note("act-note", m.message, true);
      if (state && state.view.hand) renderActions(state.view, state.view.hand); // the legal controls come back
    }
    else if (asked !== null) { note("seat-note", m.message, true); asked = null; }
    else if (!$("lobby").hidden) note("lobby-note", m.message, true);
    else note("act-note", m.message, true);
  }

  function renderPreferences(preferences) {
    if (!preferences) return;
    for (const [id, key] of [["pref-muck", "muck_losing"], ["pref-show", "show_uncontested"]]) {
      if (document.activeElement !== $(id)) $(id).checked = preferences[key];
    }
  }

  // ------------------------------------------------------------------ controls

  $("to-lobby").onclick = () => { showLobby(); };
  $("to-table").onclick = () => { if (tableId !== null) send({ type: "watch", table: tableId }); };
  $("top-up").onclick = () => {
    if (!state || seat === null) return;
    const amount = parseInt($("top-up-amount").value, 10);
    if (!(amount > 0)) { note("seat-note", "enter the chips to add", true); $("top-up-amount").focus(); return; }
    request({ type: "top_up", amount });
  };
  SeatLifecycle.install(request);
  $("pref-muck").onchange = () => request({ type: "preferences", muck_losing: $("pref-muck").checked });
  $("pref-show").onchange = () => request({ type: "preferences", show_uncontested: $("pref-show").checked });
  $("name").value = store.getItem("dh-name") || "";
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { f: "fold", c: "call", k: "check", r: "raise", b: "bet" };
    const points = { 1: 0, 2: 1, 3: 2 };
    let target = null;
    if (event.key in points) target = document.querySelector(`#hole button[data-point="${points[event.key]}"]`);
    else if (event.key in keys) {
      target = document.querySelector(`#actions button[data-action="${keys[event.key]}"]`);
      if (!target && event.key === "c") target = document.querySelector('#actions button[data-action="check"]');
    } else if (event.key === "a") { // all in: the call or the raise that puts the stack in
      target = document.querySelector('#actions button[data-all-in="1"]');
      const raise = document.querySelector('#actions button[data-all-in="max"]');
      if (!target && raise) { $("amount-value").value = $("amount").max; $("amount-value").dispatchEvent(new Event("input")); target = raise; }
    }
    if (target) { event.preventDefault(); target.click(); }
  });
  // historyLine and card for the replayer (history.js): the same words and cards as live
  window.dh = { send, act, historyLine, card, get state() { return state; }, get seat() { return seat; } };
  connect();
})();
