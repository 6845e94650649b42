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

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: V, ...message }));
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    ws = new WebSocket(url);
    ws.onopen = () => { retry = 500; status("connected"); };
    ws.onmessage = (event) => receive(JSON.parse(event.data));
    ws.onclose = () => {
      status("disconnected, reconnecting…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  function receive(m) {
    switch (m.type) {
      case "welcome": {
        const token = store.getItem("dh-token");
        if (token) send({ type: "resume", token });
        else showLobby();
        break;
      }
      case "lobby": renderLobby(m.tables); break;
      case "seated":
        store.setItem("dh-token", m.token);
        seat = m.seat; tableId = m.table;
        status(`seat ${m.seat + 1} at table ${m.table + 1}`);
        if (pending) send(pending); // a decision sent before the connection broke: applied once
        break;
      case "state": renderState(m); break;
      case "update": // the change since the last state or update: patch the view we hold
        if (state && state.table === m.table) {
          renderState({ ...m, view: applyPatch(state.view, m.patch), times: state.times });
        }
        break;
      case "result":
        if (pending && m.id === pending.id) setPending(null);
        break;
      case "error":
        if (pending && m.id === pending.id) setPending(null);
        status(`${m.code}: ${m.message}`);
        if (m.code === "bad_token") { store.removeItem("dh-token"); seat = null; showLobby(); }
        break;
      case "left": case "replaced":
        store.removeItem("dh-token"); seat = null;
        status(m.type === "left" ? "you left the table" : "this seat is open in another window");
        showLobby();
        break;
      default: break;
    }
    window.dispatchEvent(new CustomEvent("dh:message", { detail: m })); // for chat.js, presets.js, history.js
  }

  // ------------------------------------------------------------------ lobby

  function showLobby() {
    $("lobby").hidden = false; $("table").hidden = true; $("to-lobby").hidden = true;
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
      cells(row, [`Table ${t.id + 1}`, `${t.variant === "double" ? "Double" : "Texas"} Hold'em, ${t.structure}`,
        `${t.blinds[0]}/${t.blinds[1]}`, `${players}/${t.seats.length}`, `#${t.hand_number}`]);
      const td = document.createElement("td");
      const watch = button("Watch", () => {
        if (seat !== null) { status("one seat per window: leave your seat to watch another table"); return; }
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

  // Each [path, value] of a patch sets the value at path (object keys, array indexes);
  // an empty path replaces the whole view (docs/PROTOCOL.md, "update").
  function applyPatch(view, patch) {
    for (const [path, value] of patch) {
      if (path.length === 0) { view = value; continue; }
      let target = view;
      for (const key of path.slice(0, -1)) target = target[key];
      target[path[path.length - 1]] = value;
    }
    return view;
  }

  function renderState(m) {
    state = m; tableId = m.table; seat = m.seat;
    offset = m.clock - Date.now() / 1000;
    $("lobby").hidden = true; $("table").hidden = false; $("to-lobby").hidden = false;
    const view = m.view;
    const hand = view.hand;
    const playing = hand && !hand.over;
    $("table-title").textContent = `Table ${m.table + 1}: ${view.variant === "double" ? "Double" : "Texas"} Hold'em, hand #${view.hand_number}`;
    renderSeats(view, hand, playing);
    const board = $("board"); board.textContent = "";
    if (hand) for (const c of hand.board) board.append(card(c));
    $("pot").textContent = hand ? `Pot ${hand.pot}` : "Waiting for players";
    renderHole(view, hand);
    renderActions(view, hand);
    $("seat-tools").hidden = seat === null;
    const mine = seat !== null ? view.seats[seat] : null;
    $("sit-in").hidden = !(mine && mine.sitting_out);
    $("top-up").hidden = !mine || Boolean(playing && hand.in_hand[String(seat)] !== undefined);
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
        li.append(`Seat ${i + 1}: open`);
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
      const chips = document.createElement("div"); chips.textContent = `${stack} chips` + (s.sitting_out ? " (sitting out)" : "");
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
    const hole = $("hole"); hole.textContent = "";
    const mine = hand && seat !== null ? hand.hole : [];
    const choosing = hand && hand.legal && hand.decision === "point";
    $("hole-label").textContent = choosing ? "Choose your point card (DH-5): click it or press 1, 2 or 3" : (mine.length ? "Your cards" : "");
    const point = hand && seat !== null ? hand.points[String(seat)] : undefined;
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
    if (legal.can_fold) addAction("fold", "Fold", null);
    if (legal.can_check) addAction("check", "Check", null);
    else if (legal.call_amount > 0) addAction("call", `Call ${legal.call_amount}`, null);
    if (legal.min_raise_to !== null) {
      const kind = legal.is_bet ? "bet" : "raise";
      const range = $("amount"), value = $("amount-value");
      range.min = value.min = legal.min_raise_to; range.max = value.max = legal.max_raise_to;
      range.value = value.value = legal.min_raise_to;
      range.oninput = () => { value.value = range.value; label(); };
      value.oninput = () => { range.value = value.value; label(); };
      const b = addAction(kind, "", () => parseInt(value.value, 10));
      const label = () => { b.textContent = `${kind === "bet" ? "Bet" : "Raise to"} ${value.value}`; };
      label();
      sizing.hidden = legal.min_raise_to === legal.max_raise_to;
    }
    if (legal.all_in_to && (legal.min_raise_to === null || legal.all_in_to > legal.max_raise_to || legal.max_raise_to === legal.all_in_to)) {
      addAction("all_in", `All in ${legal.all_in_to}`, null);
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
    $("actions").textContent = ""; $("sizing").hidden = true;
  }

  function tick() {
    const el = $("clock");
    if (!state || state.view.deadline === null) { el.textContent = ""; return; }
    const left = Math.max(0, state.view.deadline - (Date.now() / 1000 + offset));
    const who = state.view.to_act === seat ? "You have" : `Seat ${state.view.to_act + 1} has`;
    const bank = state.view.time_bank_running;
    el.className = bank ? "bank" : "";
    el.textContent = `${who} ${left.toFixed(0)} s` + (bank ? " (time bank)" : `; time bank ${state.times.bank} s`);
  }
  setInterval(tick, 250);

  // ------------------------------------------------------------------ history

  function history(e, view) {
    const who = (s) => (view.seats[s] ? view.seats[s].player : `seat ${s + 1}`);
    let text = null;
    switch (e.kind) {
      case "hand_start": text = `Hand #${e.number}: button ${who(e.button)}`; $("results").textContent = ""; historyHand = e.number; break;
      case "small_blind": case "big_blind": case "post": text = `${who(e.seat)} posts ${e.amount}`; break;
      case "deal": if (e.cards) text = `${who(e.seat)} is dealt ${e.cards.join(" ")}`; break;
      case "fold": case "check": text = `${who(e.seat)} ${e.kind}s`; break;
      case "call": text = `${who(e.seat)} calls ${e.amount}`; break;
      case "bet": case "raise": case "all_in": text = `${who(e.seat)} ${e.kind.replace("_", "-")}s to ${e.to ?? e.amount}`; break;
      case "flop": case "turn": case "river": text = `${e.kind}: ${e.cards.join(" ")}`; break;
      case "point": text = e.cards ? `${who(e.seat)} picks point card ${e.cards[0]}` : `${who(e.seat)} picks a point card`; break;
      case "show": text = `${who(e.seat)} shows ${e.cards.join(" ")}`; break;
      case "hand": text = `${who(e.seat)} plays ${e.cards.join(" ")}`; break;
      case "award": text = `${who(e.seat)} wins ${e.amount}`; $("results").textContent += `${who(e.seat)} wins ${e.amount}. `; break;
      case "time_bank": text = `${who(e.seat)} uses the time bank`; break;
      case "timeout": text = `${who(e.seat)} ran out of time`; break;
      case "join": text = `${e.player} sits down with ${e.amount}`; break;
      case "leave": text = `${e.player} leaves`; break;
      default: break;
    }
    if (text === null) return;
    const li = document.createElement("li");
    li.textContent = text;
    const list = $("history");
    list.append(li);
    while (list.children.length > 300) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  // ------------------------------------------------------------------ controls

  $("to-lobby").onclick = () => { showLobby(); };
  $("top-up").onclick = () => {
    if (!state || seat === null) return;
    const s = state.view.seats[seat];
    const amount = parseInt($("buyin").value, 10) - (s ? s.stack : 0);
    send({ type: "top_up", amount: Math.max(1, amount || 1) });
  };
  $("sit-in").onclick = () => send({ type: "sit_in" });
  $("leave").onclick = () => send({ type: "leave" });
  $("name").value = store.getItem("dh-name") || "";
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { f: "fold", c: "call", k: "check", r: "raise", b: "bet", a: "all_in" };
    const points = { 1: 0, 2: 1, 3: 2 };
    let target = null;
    if (event.key in points) target = document.querySelector(`#hole button[data-point="${points[event.key]}"]`);
    else if (event.key in keys) {
      target = document.querySelector(`#actions button[data-action="${keys[event.key]}"]`);
      if (!target && event.key === "c") target = document.querySelector('#actions button[data-action="check"]');
    }
    if (target) { event.preventDefault(); target.click(); }
  });
  window.dh = { send, act, get state() { return state; }, get seat() { return seat; } };
  connect();
})();
