// The account box of the browser table (docs/server.md, "Accounts and sign-in"): sign-in,
// sign-up when the room allows it, sign-out, the name and balance, the statement. The
// session is an HttpOnly cookie this script never sees: a reload keeps it, and the
// WebSocket opened after a sign-in or sign-out (the page reloads) carries it. In a guest
// room (`serve --guests`, where /api/me answers 404) it shows nothing and the page's
// name box stays. Every text from the server goes in through textContent, never as HTML.

import { $, element } from "./dom.js";

const box = $("account");

async function call(method, path, body) {
  const options = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let reply;
  try {
    reply = await fetch(path, options);
  } catch (error) { // no answer at all: the server is down or the network is gone
    const message = "the server cannot be reached: try again in a moment";
    return { status: 0, headers: new Headers(), data: { message } };
  }
  let data = null;
  try { data = await reply.json(); } catch (error) { data = null; }
  return { status: reply.status, headers: reply.headers, data };
}

function say(text) {
  const line = $("account-message");
  if (line) line.textContent = text;
}

function refusal(reply) {
  if (reply.status === 429) return `too many tries: wait ${reply.headers.get("Retry-After")} s`;
  return (reply.data && reply.data.message) || `refused (${reply.status})`;
}

// the page's name box: the account's name, hidden, or the guest's choice
function seatName(name) {
  const input = $("name");
  const label = input.closest("label");
  input.value = name || "";
  input.dataset.missing = "sign in to take a seat";
  if (label) label.hidden = true;
}

function signInForm(signup) {
  const name = element("input", { id: "account-name", maxlength: "24", autocomplete: "username", required: "" });
  const password = element("input", { id: "account-password", type: "password", maxlength: "256", autocomplete: "current-password", required: "" });
  const form = element("form", { id: "signin-form" },
    element("label", {}, "Name ", name), " ",
    element("label", {}, "Password ", password), " ",
    element("button", { type: "submit", id: "signin" }, "Sign in"));
  async function send(path) {
    const reply = await call("POST", path, { name: name.value.trim(), password: password.value });
    if (reply.status === 200 || reply.status === 201) location.reload();
    else say(refusal(reply));
  }
  form.onsubmit = (event) => { event.preventDefault(); send("/api/signin"); };
  if (signup) {
    const join = element("button", { type: "button", id: "signup" }, "Sign up");
    join.onclick = () => { if (form.reportValidity()) send("/api/signup"); };
    form.append(" ", join);
  }
  return form;
}

function statementBox() {
  const list = element("ol", { id: "statement-lines" });
  const more = element("button", { type: "button", id: "statement-more", hidden: "" }, "More");
  const details = element("details", { id: "statement" }, element("summary", {}, "Statement"), list, more);
  let next = null;
  async function page(before) {
    const query = before === null ? "" : `?before=${before}`;
    const reply = await call("GET", `/api/me/statement${query}`);
    if (reply.status !== 200) { say(refusal(reply)); return; }
    for (const line of reply.data.lines) {
      const when = new Date(line.time * 1000).toLocaleString();
      const sign = line.amount > 0 ? "+" : "";
      list.append(element("li", { class: "statement-line" },
        `${when}: ${line.kind.replace("_", " ")} ${sign}${line.amount} (${line.other}), balance ${line.balance}`));
    }
    next = reply.data.next;
    more.hidden = next === null;
  }
  details.ontoggle = () => {
    if (!details.open) return;
    list.replaceChildren();
    page(null);
  };
  more.onclick = () => page(next);
  return details;
}

function signedIn(me) {
  seatName(me.name);
  const balance = element("span", { id: "account-balance" }, String(me.balance));
  const out = element("button", { type: "button", id: "signout" }, "Sign out");
  out.onclick = async () => {
    await call("POST", "/api/signout");
    location.reload();
  };
  const state = me.state === "active" ? "" : ` (${me.state})`;
  // the account's seats, taken back from this window without their tokens (resume by
  // table), kept current: a seat taken in another window or browser shows up here too
  const back = element("span", { id: "account-back" });
  function renderBack(seats) {
    back.replaceChildren(...seats.map((table) => {
      const again = element("button", { type: "button", "data-back": String(table) },
        `Back to my ${People.table(table)}`);
      again.onclick = () => { if (window.dh && window.dh.seat === null) window.dh.send({ type: "resume", table }); };
      return again;
    }));
  }
  renderBack(me.seats);
  box.replaceChildren(
    element("span", { id: "account-who" }, `${me.name}${state}`), " · balance ",
    balance, " ", out, back, statementBox(), element("span", { id: "account-message", role: "status" }));
  async function refresh() {
    const reply = await call("GET", "/api/me");
    if (reply.status !== 200) return;
    balance.textContent = String(reply.data.balance);
    renderBack(reply.data.seats);
  }
  setInterval(refresh, 5000);
  window.addEventListener("focus", refresh);
}

async function start() {
  const reply = await call("GET", "/api/me");
  if (reply.status === 404) return; // a guest room
  box.hidden = false;
  if (reply.status === 200) { signedIn(reply.data); return; }
  seatName("");
  const signup = reply.headers.get("X-Signup") === "True";
  box.replaceChildren(signInForm(signup), element("span", { id: "account-message", role: "status" }));
}

start();
