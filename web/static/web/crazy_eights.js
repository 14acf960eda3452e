// The Crazy Eights game page. Tap cards of your hand to choose them (the first must fit; with
// "several cards" on, more of the same rank follow, the last one sets the suit), then Play; an
// 8 played last asks for the suit to follow. Draw, Take and Pass are one tap. Every action goes
// to the JSON API (games/{id}/moves, hint, resign; tables/{code}/back and leave at a table); the
// panel is re-rendered by htmx afterwards and whenever the event stream reports the game.
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});
  let chosen = [];  // card names, in the order they will be laid
  let sending = false;
  let movedOn = false;  // the "game moved on" note stays through the refresh it asked for

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const panel = () => { const p = document.getElementById("game-panel"); return p && p.classList.contains("c8") ? p : null; };
  const texts = () => C10S.texts("c8-texts");
  const myTurn = () => Boolean(panel() && panel().dataset.yourTurn === "1");
  const rankOf = (name) => name.slice(0, -1);
  const SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  // "QS" -> the card's own label in the page's language ("Queen of spades")
  const said = (name) => {
    const card = $('.hand .card[data-card="' + name + '"]');
    return card ? card.getAttribute("aria-label").split(",")[0] : rankOf(name) + SYMBOLS[name.slice(-1)];
  };
  const errorOf = (r) => (r.body && r.body.error && r.body.error.message) || String(r.status);

  function say(id, message) {
    const node = document.getElementById(id);
    if (!node) return;
    node.textContent = message || "";
    if (node.hasAttribute("hidden") || id === "move-error") node.hidden = !message;
  }

  function render() {
    $$(".hand .card").forEach((card) => {
      const at = chosen.indexOf(card.dataset.card);
      card.setAttribute("aria-pressed", String(at >= 0));
      card.dataset.order = at >= 0 ? String(at + 1) : "";
    });
    const play = $("#play");
    if (play) play.disabled = chosen.length === 0 || sending;
    say("selection", chosen.length ? texts().selected + " " + chosen.map(said).join(", ") : "");
  }

  function choose(card) {
    const name = card.dataset.card;
    say("move-error", "");
    const at = chosen.indexOf(name);
    if (at === 0) { chosen = []; render(); return; }           // the lead card: start again
    if (at > 0) { chosen.splice(at, 1); render(); return; }    // a follower: put it back
    const fits = card.dataset.first === "1";
    if (chosen.length && rankOf(chosen[0]) === rankOf(name)) {
      if (panel().dataset.several !== "1") { say("move-error", texts().one_card); return; }
      chosen.push(name);
    } else if (fits) {
      chosen = [name];
    } else {
      say("move-error", chosen.length ? texts().same_rank : texts().no_fit);
      return;
    }
    render();
  }

  function askSuit() {
    const dialog = $("#suit-dialog");
    return new Promise((resolve) => {
      dialog.returnValue = "";
      dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
      dialog.showModal();
    });
  }

  async function confirm(question) {
    const dialog = $("#confirm-dialog");
    if (!dialog) return true;
    $("#confirm-title").textContent = question;
    return new Promise((resolve) => {
      dialog.returnValue = "";
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
      dialog.showModal();
    });
  }

  async function send(move) {
    const p = panel();
    const number = Number(p.dataset.move);
    sending = true; render();
    let r;
    try {
      r = await C10S.api("POST", "/api/v1/games/" + p.dataset.game + "/moves",
        { move: move, expected_move_number: number },
        { "Idempotency-Key": "web-" + p.dataset.game + "-" + number + "-" + move.replace(/\W/g, "") });
    } catch (e) { sending = false; render(); say("move-error", texts().network); return; }
    sending = false;
    if (r.status === 200 || r.status === 201) {
      chosen = []; C10S.refreshPanel(); document.dispatchEvent(new CustomEvent("c10s:moved")); return;
    }
    const code = r.body && r.body.error && r.body.error.code;
    if (code === "stale_move_number" || code === "not_your_turn") {
      // the game moved on under this page: show it now instead of asking for a reload
      C10S.refreshPanel();
      say("move-error", texts().moved_on);
      movedOn = true;
      return;
    }
    render();
    say("move-error", errorOf(r));
    const node = $("#move-error");
    if (node && r.body && r.body.error) node.dataset.code = r.body.error.code;
  }

  async function play() {
    if (!chosen.length) return;
    let move = chosen.join(" ");
    if (rankOf(chosen[chosen.length - 1]) === "8") {
      const suit = await askSuit();
      if (!suit) return;
      move += "/" + suit;
    }
    await send(move);
  }

  async function hint() {
    const p = panel();
    const r = await C10S.api("GET", "/api/v1/games/" + p.dataset.game + "/hint");
    if (r.status !== 200 || !r.body) { say("move-error", errorOf(r)); return; }
    say("hint-out", texts().hint + " " + ((r.body.reason && r.body.reason.message) || r.body.move));
    $$(".hinted").forEach((n) => n.classList.remove("hinted"));
    const move = String(r.body.move || "");
    const word = $('#controls [data-move="' + move + '"]');
    if (word) { word.classList.add("hinted"); return; }
    // a play: choose its cards in its order (an 8's suit is asked when Play is tapped)
    chosen = move.split("/")[0].split(" ").filter((name) => $('.hand .card[data-card="' + name + '"]'));
    chosen.forEach((name) => $('.hand .card[data-card="' + name + '"]').classList.add("hinted"));
    render();
  }

  async function tableAction(path) {
    let r;
    try { r = await C10S.api("POST", path, {}); } catch (e) { say("move-error", texts().network); return; }
    if (r.status === 200) C10S.refreshPanel();
    else say("move-error", errorOf(r));
  }

  document.addEventListener("click", async function (event) {
    const target = event.target.closest("button");
    const p = panel();
    if (!target || !p || !p.contains(target)) return;
    if (target.classList.contains("card") && target.closest(".hand")) {
      if (myTurn() && !sending) choose(target);
      return;
    }
    const table = p.dataset.table;
    switch (target.id) {
      case "play": await play(); break;
      case "draw": case "take": case "pass": await send(target.dataset.move); break;
      case "hint": await hint(); break;
      case "back": await tableAction("/api/v1/tables/" + table + "/back"); break;
      case "leave":
        if (await confirm(texts().confirm_leave)) await tableAction("/api/v1/tables/" + table + "/leave");
        break;
      case "resign": {
        if (!(await confirm(texts().confirm_resign))) break;
        const r = await C10S.api("POST", "/api/v1/games/" + p.dataset.game + "/resign", {});
        if (r.status === 200) C10S.refreshPanel();
        else say("move-error", errorOf(r));
        break;
      }
    }
  });

  // The 30-second turn clock of a table: a bar that empties until the deadline.
  function tick() {
    const timer = $(".c8 .timer");
    if (!timer) return;
    const left = new Date(timer.dataset.deadline) - new Date();
    const share = Math.max(0, Math.min(1, left / (Number(timer.dataset.seconds) * 1000)));
    timer.firstElementChild.style.width = (share * 100).toFixed(1) + "%";
    timer.classList.toggle("late", share < 0.34);
  }

  function reset() { chosen = []; sending = false; if (panel()) render(); tick(); }
  // The panel is replaced (outerHTML) after a move or an event: the cards chosen stay chosen
  // while it is still my turn, they are all still in my hand and the first still fits.
  function keep() {
    if (sending) return;  // my own move's answer: send() starts afresh
    const inHand = (name) => $('.hand .card[data-card="' + name + '"]');
    const lead = chosen.length ? inHand(chosen[0]) : null;
    if (!myTurn() || !lead || lead.dataset.first !== "1" || !chosen.every(inHand)) chosen = [];
    if (panel()) render();
    if (movedOn) { say("move-error", texts().moved_on); movedOn = false; }
    tick();
  }
  document.addEventListener("DOMContentLoaded", function () { reset(); setInterval(tick, 250); });
  document.addEventListener("htmx:afterSettle", keep);
})();
