// Faster play at the browser table (an ES module beside table.js, which it hears through
// the "dh:message" event and drives through window.dh): one-click bet sizes, pre-action
// boxes, a sound on your turn and the seats placed round the table.
//
// Bet sizes are the totals the server sends in legal.presets (min, half pot, pot, all in:
// none in fixed limit, at most the pot in pot limit); nothing here computes a rule.
// Pre-actions (check/fold, check, call any) act at once when the turn comes; "check" clears
// when a bet comes in front of you, and every box clears at a new street or hand.
import { $, element } from "./dom.js";
const PRESETS = [["min", "Min"], ["half_pot", "½ pot"], ["pot", "Pot"], ["all_in", "All in"]];
const PRE = [["check_fold", "Check/fold"], ["check", "Check"], ["call_any", "Call any"]];
let chosen = null; // the pre-action box ticked, or null
let situation = null; // [hand number, street, the bet to match] when it was ticked
let myTurn = false;

function build() {
  const sizing = $("sizing");
  const presets = element("div", { id: "presets", "aria-label": "Bet sizes" });
  sizing.after(presets);
  const pre = element("div", { id: "pre-actions", "aria-label": "Act in advance", hidden: "" });
  for (const [value, label] of PRE) {
    const box = element("input", { type: "checkbox", "data-pre": value, id: `pre-${value}` });
    box.onchange = () => choose(box.checked ? value : null);
    const tag = element("label", { for: `pre-${value}` });
    tag.append(box, " " + label);
    pre.append(tag);
  }
  presets.after(pre);
  const sound = element("label", { id: "sound-box" });
  const toggle = element("input", { type: "checkbox", id: "sound" });
  toggle.checked = localStorage.getItem("dh-sound") === "on";
  toggle.onchange = () => localStorage.setItem("dh-sound", toggle.checked ? "on" : "off");
  sound.append(toggle, " Sound on your turn");
  $("seat-tools").append(sound);
}

function level(hand) { return Math.max(0, ...Object.values(hand.bets)); }

function choose(value) {
  chosen = value;
  const s = window.dh.state;
  const hand = s && s.view.hand;
  situation = hand ? [s.view.hand_number, hand.street, level(hand)] : null;
  for (const box of document.querySelectorAll("#pre-actions input")) box.checked = box.dataset.pre === value;
}

function renderPresets(legal) {
  const box = $("presets"); box.textContent = "";
  if (!legal || legal.decision !== "bet" || !legal.presets) return;
  const amount = $("amount-value"), range = $("amount");
  for (const [key, label] of PRESETS) {
    const total = legal.presets[key];
    if (total === undefined) continue;
    const b = element("button", { type: "button", "data-preset": key }, `${label} ${total}`);
    b.onclick = () => {
      amount.value = range.value = String(total);
      amount.dispatchEvent(new Event("input")); // table.js relabels its bet or raise button
    };
    box.append(b);
  }
}

// The seats round the felt: seat i of n at a fixed place on an ellipse (wide screens; at
// phone width the CSS keeps them in a grid).
function placeSeats(count) {
  $("felt").classList.add("round");
  for (const li of document.querySelectorAll("#seats .seat")) {
    const angle = Math.PI / 2 + (2 * Math.PI * Number(li.dataset.seat)) / count;
    li.style.left = `${50 + 42 * Math.cos(angle)}%`;
    li.style.top = `${50 + 40 * Math.sin(angle)}%`;
  }
}

function beep() {
  if (!$("sound").checked) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  const tone = audio.createOscillator(), gain = audio.createGain();
  tone.frequency.value = 880;
  gain.gain.value = 0.1;
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.15);
  tone.onended = () => audio.close();
}

function preAction(legal) {
  if (chosen === "check_fold") return legal.can_check ? "check" : "fold";
  if (chosen === "check") return legal.can_check ? "check" : null;
  if (chosen === "call_any") return legal.can_check ? "check" : "call";
  return null;
}

function render() {
  const s = window.dh.state;
  if (!s) return;
  const view = s.view, seat = window.dh.seat, hand = view.hand;
  placeSeats(view.seats.length);
  const legal = hand && hand.legal;
  renderPresets(legal);
  const inHand = Boolean(hand && !hand.over && seat !== null && hand.in_hand[String(seat)]);
  const turn = Boolean(legal && view.to_act === seat);
  if (turn && !myTurn) beep();
  myTurn = turn;
  if (chosen && (!inHand || situation === null || situation[0] !== view.hand_number || situation[1] !== hand.street)) choose(null);
  else if (chosen === "check" && level(hand) > situation[2]) choose(null); // a bet in front
  $("pre-actions").hidden = !inHand || turn;
  if (inHand) $("pre-check").disabled = level(hand) > (hand.bets[String(seat)] || 0); // a bet to call
  if (turn && legal.decision === "bet" && chosen) {
    const action = preAction(legal);
    choose(null);
    if (action) window.dh.act(action, null);
  }
}

build();
window.addEventListener("dh:message", (event) => {
  if (event.detail.type === "state" || event.detail.type === "update") render();
});
if (window.dh && window.dh.state) render();
