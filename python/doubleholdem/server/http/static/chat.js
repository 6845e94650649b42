// The table's chat (an ES module beside table.js: it hears the "dh:message" event and
// sends through window.dh). Every line is shown as text (textContent), never as HTML. A
// player may mute another: the names muted are kept in this browser (localStorage) and
// their lines are hidden, the ones already shown and the ones to come.
import { $, element } from "./dom.js";
const MAX_CHAT = 200; // docs/PROTOCOL.md, "chat"
const muted = new Set(JSON.parse(localStorage.getItem("dh-muted") || "[]"));
let tableId = null;

function build() {
  const box = element("section", { id: "chat-box", "aria-labelledby": "chat-title" });
  box.append(element("h3", { id: "chat-title" }, "Chat"));
  box.append(element("ol", { id: "chat", "aria-live": "polite" }));
  const form = element("form", { id: "chat-form" });
  const input = element("input", { id: "chat-text", maxlength: String(MAX_CHAT), autocomplete: "off", "aria-label": "Message" });
  form.append(input, element("button", { type: "submit" }, "Send"));
  form.onsubmit = (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    window.dh.send({ type: "chat", text });
    $("chat-note").textContent = "";
    input.value = "";
  };
  const note = element("p", { id: "chat-note", class: "note error", role: "status", "aria-live": "polite" });
  box.append(form, note, element("div", { id: "muted" }));
  $("history-box").after(box);
  renderMuted();
}

function line(entry) {
  const li = element("li");
  li.dataset.player = entry.player;
  const who = element("span", { class: "who" }, entry.seat === null ? `${entry.player} (watching)` : entry.player);
  const text = element("span", { class: "said" }, entry.text);
  li.append(who, ": ", text);
  if (window.dh.seat === null || window.dh.state?.view.seats[window.dh.seat]?.player !== entry.player) {
    const mute = element("button", { type: "button", class: "mute", title: `Mute ${entry.player}` }, "mute");
    mute.onclick = () => toggle(entry.player, true);
    li.append(" ", mute);
  }
  li.hidden = muted.has(entry.player);
  return li;
}

function add(entry) {
  const list = $("chat");
  list.append(line(entry));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function toggle(player, mute) {
  if (mute) muted.add(player); else muted.delete(player);
  localStorage.setItem("dh-muted", JSON.stringify([...muted]));
  for (const li of $("chat").children) li.hidden = muted.has(li.dataset.player);
  renderMuted();
}

function renderMuted() {
  const box = $("muted"); box.textContent = "";
  for (const player of muted) {
    const b = element("button", { type: "button", class: "unmute" }, `unmute ${player}`);
    b.onclick = () => toggle(player, false);
    box.append(b);
  }
}

function receive(m) {
  if (m.type === "state") {
    tableId = m.table;
    $("chat").textContent = "";
    for (const entry of m.chat || []) add(entry);
  } else if (m.type === "chat" && m.table === tableId) {
    add(m);
  } else if (m.type === "error" && m.message.startsWith("chat:")) {
    // a refusal of the chat, beside its form, in words (the code is for programs)
    $("chat-note").textContent = m.message.slice("chat:".length).trim();
  }
}

build();
window.addEventListener("dh:message", (event) => receive(event.detail));
if (window.dh && window.dh.state) receive(window.dh.state);
