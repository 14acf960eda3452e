// Staging tiles on the Crazy10s board (games and the Daily Puzzle).
// Tap a rack tile, then an empty square, to place it; tap a placed tile to take it back;
// a wild asks for its digit. Nothing is sent while staging except the score preview
// (POST /api/v1/games/<id>/preview, one at a time, the newest wins). Keyboard: arrow keys
// move on the board, Enter/Space place, a digit key places a rack tile of that digit,
// Backspace/Delete takes a staged tile back. On a phone, a double tap on a square or a
// two-finger pinch zooms the board (see "Zoom" below).
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});
  let staged = [];        // [{sq, index, digit, wild}]
  let selected = null;    // rack index
  let swapping = false;
  let swapSet = new Set();
  let previewSeq = 0;

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const panel = () => document.getElementById("game-panel");
  const texts = () => C10S.texts("c10s-texts");
  const isPuzzle = () => Boolean(panel() && panel().dataset.puzzle);
  const myTurn = () => Boolean(panel() && panel().dataset.yourTurn === "1");

  function notation() {
    return staged.map((s) => s.sq + "=" + (s.wild ? "*" : "") + s.digit).join(" ");
  }

  let refusal = null;  // the refusal shown ({message, code, squares}): an update keeps it
  function showError(message) {
    const node = $("#move-error");
    if (!message) { markRefused([]); refusal = null; }
    if (!node) return;
    node.textContent = message || "";
    node.hidden = !message;
  }

  // The squares a refusal names: its square, or every square of its line ("f6-f7").
  function refusedSquares(details) {
    if (!details) return [];
    const out = [];
    if (typeof details.square === "string") out.push(details.square);
    const line = details.line;
    const at = (sq) => { const m = /^([a-z])(\d{1,2})$/.exec(sq || ""); return m && [m[1].charCodeAt(0), Number(m[2])]; };
    const start = line && at(line.start), end = line && at(line.end);
    if (start && end) {
      for (let c = Math.min(start[0], end[0]); c <= Math.max(start[0], end[0]); c++) {
        for (let r = Math.min(start[1], end[1]); r <= Math.max(start[1], end[1]); r++) {
          out.push(String.fromCharCode(c) + r);
        }
      }
    }
    return out;
  }
  function markRefused(squares) {
    $$(".board .c.refused").forEach((cell) => cell.classList.remove("refused"));
    squares.forEach((sq) => {
      const cell = $('.board .c[data-sq="' + sq + '"]');
      if (cell) cell.classList.add("refused");
    });
  }

  function render() {
    $$(".rack .tile").forEach((tile) => {
      const i = Number(tile.dataset.i);
      const used = staged.some((s) => s.index === i);
      tile.classList.toggle("used", used);
      tile.disabled = used || (!myTurn() && !swapping);
      tile.setAttribute("aria-pressed", String(swapping ? swapSet.has(i) : selected === i));
    });
    $$(".board .c.staged").forEach((cell) => {
      cell.classList.remove("staged");
      cell.textContent = "";
      const label = cell.dataset.label;
      if (label !== undefined) cell.setAttribute("aria-label", label);
      if (cell.dataset.bonus) {
        const small = document.createElement("small");
        small.textContent = cell.dataset.bonus;
        cell.appendChild(small);
      }
    });
    staged.forEach((s) => {
      const cell = $('.board .c[data-sq="' + s.sq + '"]');
      if (!cell) return;
      if (cell.dataset.label === undefined) {
        cell.dataset.label = cell.getAttribute("aria-label");
        cell.dataset.bonus = (cell.querySelector("small") || {}).textContent || "";
      }
      cell.classList.add("staged");
      cell.textContent = s.digit;
      cell.setAttribute("aria-label", s.sq + ": " + s.digit + (s.wild ? " (*)" : ""));
    });
    const play = $("#play"), recall = $("#recall");
    if (play) play.disabled = staged.length === 0 || swapping;
    if (recall) recall.disabled = staged.length === 0;
    const swapConfirm = $("#swap-confirm");
    if (swapConfirm) { swapConfirm.hidden = !swapping; swapConfirm.disabled = swapSet.size === 0; }
    const swapButton = $("#swap");
    if (swapButton) swapButton.setAttribute("aria-pressed", String(swapping));
  }

  async function preview() {
    const p = panel();
    const out = $("#preview");
    if (!out) return;
    delete out.dataset.legal;  // until the answer for this very staging comes
    if (staged.length === 0 || isPuzzle()) { out.textContent = ""; previewSeq++; return; }
    const seq = ++previewSeq;
    try {
      const r = await C10S.api("POST", "/api/v1/games/" + p.dataset.game + "/preview",
        { move: notation() });
      if (seq !== previewSeq) return;  // a newer staging already asked
      if (r.status === 200 && r.body) {
        out.dataset.legal = String(r.body.legal);
        out.textContent = r.body.legal
          ? texts().score + " " + r.body.score
          : (r.body.error && r.body.error.message) || "";
      } else if (r.body && r.body.error) {
        out.textContent = r.body.error.message;
      }
    } catch (e) { /* the preview is a help: the move itself reports any error */ }
  }

  function changed() { showError(""); render(); preview(); }

  function askWild() {
    const dialog = $("#wild-dialog");
    // A digit key answers at once (keyboard play); the buttons work for taps.
    const onKey = (event) => {
      if (/^[0-9]$/.test(event.key)) { event.preventDefault(); dialog.close(event.key); }
    };
    dialog.addEventListener("keydown", onKey);
    return new Promise((resolve) => {
      dialog.returnValue = "";
      dialog.addEventListener("close", () => {
        dialog.removeEventListener("keydown", onKey);
        resolve(dialog.returnValue);
      }, { once: true });
      dialog.showModal();
    });
  }

  async function placeOn(cell) {
    if (selected === null) { showError(texts().choose_tile); return; }
    const tile = $('.rack .tile[data-i="' + selected + '"]');
    const index = selected;
    let digit = tile.dataset.t, wild = false;
    if (digit === "*") {
      digit = await askWild();
      if (digit === "") { cell.focus(); return; }
      wild = true;
    }
    staged.push({ sq: cell.dataset.sq, index: index, digit: digit, wild: wild, tile: tile.dataset.t });
    selected = null;
    changed();
    cell.focus();
  }

  function takeBack(sq) {
    staged = staged.filter((s) => s.sq !== sq);
    changed();
  }

  async function send(move) {
    const p = panel();
    let r;
    try {
      if (isPuzzle()) {
        r = await C10S.api("POST", "/api/v1/puzzles/" + p.dataset.puzzle + "/attempt", { move: move });
      } else {
        const number = Number(p.dataset.move);
        r = await C10S.api("POST", "/api/v1/games/" + p.dataset.game + "/moves",
          { move: move, expected_move_number: number },
          { "Idempotency-Key": "web-" + p.dataset.game + "-" + number + "-" + move });
      }
    } catch (e) { showError(texts().network); return false; }
    if (r.status === 200 || r.status === 201) {
      staged = []; selected = null; swapping = false; swapSet = new Set(); refusal = null;
      if (isPuzzle()) window.location.reload();
      else { C10S.refreshPanel(); document.dispatchEvent(new CustomEvent("c10s:moved")); }
      return true;
    }
    const code = r.body && r.body.error && r.body.error.code;
    if (code === "stale_move_number" || code === "not_your_turn") {
      // The game moved on under this page (another tab, the other player): show it now,
      // keeping what is staged where it still fits, instead of asking for a reload.
      refusal = { message: texts().moved_on, code: code, squares: [] };
      showError(texts().moved_on);
      C10S.refreshPanel();
      return false;
    }
    showError((r.body && r.body.error && r.body.error.message) || String(r.status));
    const error = $("#move-error");
    if (error && r.body && r.body.error) error.dataset.code = r.body.error.code;
    if (r.body && r.body.error) markRefused(refusedSquares(r.body.error.details));
    refusal = { message: error && error.textContent, code: error && error.dataset.code,
                squares: r.body && r.body.error ? refusedSquares(r.body.error.details) : [] };
    return false;
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

  document.addEventListener("click", async function (event) {
    const target = event.target.closest("button");
    if (!target || !panel() || !panel().contains(target)) return;
    if (target.classList.contains("tile")) {
      const i = Number(target.dataset.i);
      lastTap = null;
      if (swapping) { swapSet.has(i) ? swapSet.delete(i) : swapSet.add(i); render(); return; }
      selected = selected === i ? null : i;
      showError(""); render();
      return;
    }
    if (target.classList.contains("c") && target.closest(".board")) {
      const sq = target.dataset.sq;
      if (doubleTap(sq, event.timeStamp)) return;
      lastSquare = sq;
      if (!myTurn() || swapping) return;
      const gone = staged.find((s) => s.sq === sq);
      if (gone) { if (lastTap) lastTap.undo = gone; takeBack(sq); return; }
      if (target.dataset.d !== undefined) return;  // a tile already on the board
      await placeOn(target);
      return;
    }
    switch (target.id) {
      case "zoom": zoom = zoom > 1 ? 1 : ZOOM; showZoom(true); break;
      case "play": if (staged.length) await send(notation()); break;
      case "recall": staged = []; selected = null; changed(); break;
      case "swap":
        swapping = !swapping; swapSet = new Set(); staged = []; selected = null; changed(); break;
      case "swap-confirm": {
        if (!swapSet.size) break;
        const tiles = $$(".rack .tile").filter((t) => swapSet.has(Number(t.dataset.i)))
          .map((t) => t.dataset.t);
        if (await confirm(texts().confirm_swap)) await send("swap " + tiles.join(" "));
        break;
      }
      case "pass": if (await confirm(texts().confirm_pass)) await send("pass"); break;
      case "nudge": {
        const r = await C10S.api("POST", "/api/v1/games/" + panel().dataset.game + "/nudge", {});
        const out = $("#nudge-status");
        if (out) {
          out.textContent = r.status === 202 ? texts().nudged
            : (r.body && r.body.error && r.body.error.message) || String(r.status);
        }
        break;
      }
      case "resign": {
        if (!(await confirm(texts().confirm_resign))) break;
        const r = await C10S.api("POST", "/api/v1/games/" + panel().dataset.game + "/resign", {});
        if (r.status === 200) C10S.refreshPanel();
        else showError((r.body && r.body.error && r.body.error.message) || String(r.status));
        break;
      }
    }
  });

  // Keyboard on the board: one tab stop, arrows move (roving tabindex).
  function setupBoard() {
    const cells = $$(".board .c");
    if (!cells.length) return;
    const n = Math.round(Math.sqrt(cells.length));
    let current = cells.findIndex((c) => c.classList.contains("last"));
    if (current < 0) current = Math.floor(cells.length / 2);
    cells.forEach((c, i) => { c.tabIndex = i === current ? 0 : -1; });
    const board = $(".board");
    if (board.dataset.keys) return;  // once per board (a swap brings a new one)
    board.dataset.keys = "1";
    board.addEventListener("keydown", function (event) {
      const i = cells.indexOf(document.activeElement);
      if (i < 0) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -n, ArrowDown: n };
      if (event.key in moves) {
        const j = i + moves[event.key];
        const sameRow = Math.floor(j / n) === Math.floor(i / n);
        if (j >= 0 && j < cells.length && (Math.abs(moves[event.key]) === n || sameRow)) {
          cells[i].tabIndex = -1; cells[j].tabIndex = 0; cells[j].focus();
        }
        event.preventDefault();
      } else if (/^[0-9*]$/.test(event.key) && myTurn()) {
        const tile = $$(".rack .tile").find((t) => t.dataset.t === event.key && !t.classList.contains("used"));
        if (tile && cells[i].dataset.d === undefined && !staged.some((s) => s.sq === cells[i].dataset.sq)) {
          selected = Number(tile.dataset.i);
          placeOn(cells[i]);
        }
        event.preventDefault();
      } else if ((event.key === "Backspace" || event.key === "Delete") && staged.some((s) => s.sq === cells[i].dataset.sq)) {
        takeBack(cells[i].dataset.sq);
        event.preventDefault();
      }
    });
  }

  function reset() {
    staged = []; selected = null; swapping = false; swapSet = new Set(); refusal = null;
    setupBoard(); render();
  }

  // After an update (the other player's move, a computer's, a second event of the same
  // move): keep what the player was doing where it is still possible on the new panel.
  // A staged tile stays if its square is still empty and its rack tile is the same tile;
  // the chosen tile and the swap choice stay while the rack is the same; nothing stays once
  // it is not the player's turn (staging is only offered then).
  // Zoom (a phone's 27-px squares): the board at `zoom` times (1 fits the page) in its own
  // horizontal scroll, kept through updates. The Zoom button and a double tap on a square
  // toggle ZOOM times, centred on the square; two fingers pinch it between 1 and MAX_ZOOM.
  // Only where the button is offered (phones): the desktop's squares are big enough.
  const ZOOM = 1.7, MAX_ZOOM = 3, DOUBLE_TAP_MS = 300;
  let zoom = 1;
  let lastSquare = null;
  let boardScroll = 0;     // the zoomed board's horizontal scroll, through a re-render
  let pointerType = "";    // of the last press: a double tap is a touch gesture
  let lastTap = null;      // {sq, at, undo}: the first tap of a possible double tap
  const zoomOffered = () => window.matchMedia("(max-width: 899px)").matches;
  function showZoom(toSquare) {
    const scroller = $(".board-scroll");
    if (scroller) {
      scroller.classList.toggle("zoomed", zoom > 1);
      scroller.style.setProperty("--zoom", String(zoom));
    }
    const button = $("#zoom");
    if (button) button.setAttribute("aria-pressed", String(zoom > 1));
    const cell = lastSquare && $('.board .c[data-sq="' + lastSquare + '"]');
    if (toSquare && zoom > 1 && cell) cell.scrollIntoView({ block: "nearest", inline: "center" });
  }
  function keepZoom() {  // on the new panel of an update, scrolled as the old one was
    showZoom(false);
    const scroller = $(".board-scroll");
    if (scroller && zoom > 1) scroller.scrollLeft = boardScroll;
  }
  // The new board is zoomed at once, in the task that swapped it in: waiting for the settle
  // (keep(), ~20 ms later) would show the page-wide board for a frame on every update.
  document.addEventListener("htmx:afterSwap", function () { if (panel()) keepZoom(); });
  document.addEventListener("pointerdown", function (event) { pointerType = event.pointerType; }, true);

  // The second tap of a double tap on one square toggles the zoom around it and changes
  // nothing else: the first tap already did what a tap does (placed the chosen tile), and
  // a staged tile the first tap took back goes back on its square.
  function doubleTap(sq, at) {
    if (pointerType !== "touch" || !zoomOffered()) { lastTap = null; return false; }
    const first = lastTap;
    if (!first || first.sq !== sq || at - first.at > DOUBLE_TAP_MS) {
      lastTap = { sq: sq, at: at, undo: null };
      return false;
    }
    lastTap = null;
    const undo = first.undo;
    if (undo && !staged.some((s) => s.sq === sq || s.index === undo.index)) {
      staged.push(undo);
      changed();
    }
    lastSquare = sq;
    zoom = zoom > 1 ? 1 : ZOOM;
    showZoom(true);
    return true;
  }

  // Pinch: the point between the two fingers stays where it is while the board grows or
  // shrinks; let go near 1 and it fits the page again. The board's touch-action (app.css)
  // keeps the browser's own page zoom out of it.
  let pinch = null;
  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  function zoomAt(next, x, y) {
    const scroller = $(".board-scroll"), frame = $(".board-frame");
    if (!scroller || !frame) return;
    const before = frame.getBoundingClientRect();
    const fx = (x - before.left) / before.width, fy = (y - before.top) / before.height;
    zoom = next;
    showZoom(false);
    const after = frame.getBoundingClientRect();
    scroller.scrollLeft += after.left + fx * after.width - x;
    window.scrollBy(0, after.top + fy * after.height - y);
  }
  document.addEventListener("touchstart", function (event) {
    const scroller = $(".board-scroll");
    if (event.touches.length !== 2 || !scroller || !zoomOffered()) { pinch = null; return; }
    if (!Array.from(event.touches).every((t) => scroller.contains(t.target))) return;
    pinch = { spread: spread(event.touches) || 1, zoom: zoom };
    lastTap = null;
  }, { passive: true });
  document.addEventListener("touchmove", function (event) {
    if (!pinch || event.touches.length !== 2) return;
    event.preventDefault();
    const t = event.touches;
    const next = Math.min(MAX_ZOOM, Math.max(1, pinch.zoom * spread(t) / pinch.spread));
    zoomAt(next, (t[0].clientX + t[1].clientX) / 2, (t[0].clientY + t[1].clientY) / 2);
  }, { passive: false });
  function endPinch(event) {
    if (!pinch || event.touches.length >= 2) return;
    pinch = null;
    if (zoom > 1 && zoom < 1.15) { zoom = 1; showZoom(false); }
  }
  document.addEventListener("touchend", endPinch);
  document.addEventListener("touchcancel", endPinch);

  // Drag a rack tile onto a square (mouse or touch), besides tap-tap. A press that does not
  // move is a tap: the click handler takes it.
  let drag = null;
  let swallowClick = false;
  document.addEventListener("pointerdown", function (event) {
    const tile = event.target.closest(".rack .tile");
    if (!tile || !panel() || !panel().contains(tile) || tile.disabled || !myTurn() || swapping) return;
    drag = { tile: tile, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null };
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      drag.ghost = drag.tile.cloneNode(true);
      drag.ghost.className = "tile drag-ghost";
      drag.ghost.removeAttribute("id");
      drag.ghost.setAttribute("aria-hidden", "true");
      document.body.appendChild(drag.ghost);
    }
    drag.ghost.style.left = event.clientX + "px";
    drag.ghost.style.top = event.clientY + "px";
    event.preventDefault();
  });
  function endDrag(event, drop) {
    if (!drag || event.pointerId !== drag.id) return;
    const done = drag;
    drag = null;
    if (!done.ghost) return;  // a tap
    done.ghost.remove();
    swallowClick = true;
    setTimeout(function () { swallowClick = false; }, 400);
    if (!drop) return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const cell = under && under.closest(".board .c");
    if (!cell || cell.dataset.d !== undefined || staged.some((s) => s.sq === cell.dataset.sq)) return;
    selected = Number(done.tile.dataset.i);
    placeOn(cell);
  }
  document.addEventListener("pointerup", function (event) { endDrag(event, true); });
  document.addEventListener("pointercancel", function (event) { endDrag(event, false); });
  document.addEventListener("click", function (event) {
    if (swallowClick) { swallowClick = false; event.stopPropagation(); event.preventDefault(); }
  }, true);

  function keep() {
    const tileAt = (i) => $('.rack .tile[data-i="' + i + '"]');
    const sameTile = (i, t) => { const tile = tileAt(i); return Boolean(tile) && tile.dataset.t === t; };
    if (!myTurn() || isPuzzle()) { reset(); keepZoom(); return; }
    staged = staged.filter((s) => {
      const cell = $('.board .c[data-sq="' + s.sq + '"]');
      return cell && cell.dataset.d === undefined && sameTile(s.index, s.tile);
    });
    if (selected !== null && (!sameTile(selected, selectedTile) || staged.some((s) => s.index === selected))) {
      selected = null;
    }
    swapSet = new Set(Array.from(swapSet).filter((i) => sameTile(i, swapTiles[i])));
    if (swapping && !$("#swap")) { swapping = false; swapSet = new Set(); }
    setupBoard(); render(); keepZoom();
    if (staged.length) preview();
    if (refusal && refusal.message) {
      const kept = refusal;
      showError(kept.message);
      const node = $("#move-error");
      if (node && kept.code) node.dataset.code = kept.code;
      markRefused(kept.squares);
      refusal = kept;
    }
  }
  // What the chosen rack places hold, to tell the same tile after a re-render.
  let selectedTile = null;
  let swapTiles = {};
  document.addEventListener("htmx:beforeSwap", function () {
    const scroller = $(".board-scroll");
    boardScroll = scroller ? scroller.scrollLeft : 0;
    selectedTile = selected === null ? null : ($('.rack .tile[data-i="' + selected + '"]') || { dataset: {} }).dataset.t;
    swapTiles = {};
    swapSet.forEach((i) => { swapTiles[i] = ($('.rack .tile[data-i="' + i + '"]') || { dataset: {} }).dataset.t; });
  });
  document.addEventListener("DOMContentLoaded", reset);

  // The first game's tips, until the player closes them (remembered on this device).
  const TIPS_CLOSED = "c10s-first-tips-closed";
  document.addEventListener("DOMContentLoaded", function () {
    const tips = $("#first-tips");
    if (!tips) return;
    let closed = false;
    try { closed = window.localStorage.getItem(TIPS_CLOSED) === "1"; } catch (e) { /* private mode */ }
    tips.hidden = closed;
    $("#first-tips-close").addEventListener("click", function () {
      tips.hidden = true;
      try { window.localStorage.setItem(TIPS_CLOSED, "1"); } catch (e) { /* private mode */ }
      const status = $("#turn-status");
      if (status) { status.tabIndex = -1; status.focus(); }
    });
  });
  // The panel is replaced (outerHTML) after a move or an event: start afresh on the new one,
  // and keep the keyboard where it was (the same control, else the turn's status line).
  let focusId = null;
  function selectorOf(node) {
    if (node.id) return "#" + node.id;
    if (node.dataset.sq) return '.board .c[data-sq="' + node.dataset.sq + '"]';
    return "#turn-status";
  }
  document.addEventListener("htmx:beforeSwap", function () {
    const active = document.activeElement;
    focusId = panel() && panel().contains(active) ? selectorOf(active) : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!panel()) return;
    keep();
    if (focusId) {
      const target = $(focusId) || $("#turn-status");
      if (target) {
        if (!target.matches("button, a, input, select")) target.tabIndex = -1;
        target.focus();
      }
      focusId = null;
    }
  });
})();
