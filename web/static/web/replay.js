// The replay viewer: steps through a finished game's record (games/correspondence/records.py):
// the scores, the move with the rack or hand before it, "% of best" and the best move, and the
// position after it (Crazy10s: the board; Crazy Eights: round, top card, cards in hand).
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const record = JSON.parse(document.getElementById("replay-record").textContent);
  const texts = JSON.parse(document.getElementById("replay-texts").textContent);
  const moves = record.moves;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));
  // The position after each move: the start's, with each step's changed keys laid over it.
  const positions = [record.initial || {}];
  moves.forEach((m, i) => positions.push(Object.assign({}, positions[i], m.position || {})));
  let step = moves.length;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function board(position) {
    const rows = position.board;
    const bonus = {};
    (position.bonus_squares || []).forEach((b) => { bonus[b.square] = b.kind; });
    const classes = { DN: "dn", TN: "tn", DL: "dl", TL: "tl", "★": "st" };
    const last = new Set();
    const move = moves[step - 1];
    if (move && move.kind === "placement") {
      (move.notation.match(/[a-z]\d{1,2}(?==)/g) || []).forEach((sq) => last.add(sq));
    }
    const grid = el("div", "board replay-board");
    grid.setAttribute("role", "img");
    grid.setAttribute("aria-label", texts.board);
    grid.style.setProperty("--n", rows.length);
    rows.forEach((row, r) => {
      Array.from(row).forEach((ch, c) => {
        const name = "abcdefghijklmnopqrstuvwxyz"[c] + (r + 1);
        const cell = el("span", ["c", classes[bonus[name]] || "", last.has(name) ? "last" : ""]
          .filter(Boolean).join(" "));
        cell.dataset.sq = name;
        if (ch !== ".") { cell.textContent = ch; cell.dataset.d = ch; }
        else if (bonus[name]) cell.appendChild(el("small", "", bonus[name]));
        grid.appendChild(cell);
      });
    });
    return grid;
  }

  function cardsTable(position) {
    const box = el("div", "replay-cards");
    if (position.round !== undefined) box.appendChild(el("p", "", fill(texts.round, { n: position.round })));
    if (position.top) box.appendChild(el("p", "replay-top", fill(texts.top, { card: position.top + (position.suit ? " → " + position.suit : "") })));
    if (position.players) {
      const list = el("ul", "replay-hands");
      position.players.forEach((p) => {
        const player = record.players[p.seat];
        list.appendChild(el("li", "", `${player.name || "-"}: ${p.card_count} ${texts.cards}`));
      });
      box.appendChild(list);
    }
    return box;
  }

  function render() {
    document.getElementById("replay-step").textContent =
      step === 0 ? texts.start : fill(texts.step, { n: step, total: moves.length });
    const move = moves[step - 1];
    const scores = move ? move.scores_after : record.players.map(() => 0);
    const scoreList = document.getElementById("replay-scores");
    scoreList.replaceChildren(...record.players.map((p, i) => {
      const item = el("li", move && move.seat === i ? "mover" : "", `${p.name || "-"} `);
      item.appendChild(el("strong", "", String(scores ? scores[i] : "")));
      return item;
    }));
    const position = positions[step];
    const table = document.getElementById("replay-table");
    table.replaceChildren(position.board ? board(position) : cardsTable(position));
    const box = document.getElementById("replay-move");
    box.replaceChildren();
    if (move) {
      const line = el("p", "replay-line");
      line.appendChild(el("strong", "", `${move.number}. ${move.player || "-"} `));
      if (move.pieces_before) line.appendChild(el("span", "pieces", `[${move.pieces_before}] `));
      line.appendChild(el("code", "", move.notation));
      line.appendChild(document.createTextNode(` ${move.score >= 0 ? "+" : ""}${move.score}`));
      box.appendChild(line);
      if (move.best_score !== null && move.best_score !== undefined) {
        box.appendChild(el("p", "replay-best", fill(texts.percent, { percent: move.percent_of_best + "%" })
          + " · " + fill(texts.best, { move: move.best_notation || "-", score: move.best_score })));
      }
    }
    document.querySelectorAll("#replay-moves li").forEach((li, i) => {
      li.classList.toggle("current", i === step - 1);
      if (i === step - 1) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    root.querySelector('[data-step="first"]').disabled = root.querySelector('[data-step="prev"]').disabled = step === 0;
    root.querySelector('[data-step="last"]').disabled = root.querySelector('[data-step="next"]').disabled = step === moves.length;
  }

  function go(where) {
    const to = { first: 0, prev: step - 1, next: step + 1, last: moves.length }[where];
    step = Math.max(0, Math.min(moves.length, to));
    render();
  }

  const list = document.getElementById("replay-moves");
  moves.forEach((m, i) => {
    const before = positions[i];  // the round a move belongs to is the one before it
    const item = el("li", "");
    if (before.round !== undefined && (i === 0 || positions[i - 1].round !== before.round)) {
      item.dataset.round = fill(texts.round, { n: before.round });
      item.classList.add("new-round");
    }
    const link = el("button", "link", `${m.player || "-"}: ${m.notation} (${m.score >= 0 ? "+" : ""}${m.score})`);
    link.type = "button";
    link.addEventListener("click", () => { step = i + 1; render(); });
    item.appendChild(link);
    list.appendChild(item);
  });
  root.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", () => go(b.dataset.step)));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[e.key]) { e.preventDefault(); go(keys[e.key]); }
  });
  render();
})();
