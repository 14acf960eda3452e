// Watching a game: draws the spectator's view (games/correspondence/spectating.py) and asks the
// API for it again every few seconds (the spectator has no event stream of their own).
(function () {
  "use strict";
  const root = document.getElementById("watch");
  if (!root) return;
  const texts = JSON.parse(document.getElementById("watch-texts").textContent);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  let shown = null;

  function board(position, last) {
    const bonus = {};
    (position.bonus_squares || []).forEach((b) => { bonus[b.square] = b.kind; });
    const classes = { DN: "dn", TN: "tn", DL: "dl", TL: "tl", "★": "st" };
    const grid = el("div", "board replay-board");
    grid.setAttribute("role", "img");
    grid.setAttribute("aria-label", texts.board);
    grid.style.setProperty("--n", position.board.length);
    position.board.forEach((row, r) => {
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
    const box = el("div", "");
    box.appendChild(grid);
    box.appendChild(el("p", "muted", fill(texts.bag, { n: position.bag_size })));
    return box;
  }

  function cards(view) {
    const position = view.position;
    const box = el("div", "replay-cards");
    box.appendChild(el("p", "", fill(texts.round, { n: position.round })));
    if (position.top) box.appendChild(el("p", "", fill(texts.top, { card: position.top + (position.suit ? " → " + position.suit : "") })));
    return box;
  }

  function render(view) {
    shown = view;
    const mover = view.players.find((p) => p.seat === view.to_move);
    document.getElementById("watch-status").textContent =
      view.status === "active" && mover ? fill(texts.to_move, { name: mover.name || "-" }) : texts.over;
    document.getElementById("watch-scores").replaceChildren(...view.players.map((p) => {
      const item = el("li", p.seat === view.to_move ? "mover" : "", `${p.name || "-"} `);
      item.dataset.seat = p.seat;
      item.appendChild(el("strong", "", String(p.score)));
      item.appendChild(el("small", "muted", ` · ${p.piece_count} ${view.position.board ? texts.tiles : texts.cards}`));
      return item;
    }));
    const last = new Set();
    const lastMove = view.moves[view.moves.length - 1];
    if (lastMove && lastMove.kind === "placement") {
      (lastMove.notation.match(/[a-z]\d{1,2}(?==)/g) || []).forEach((sq) => last.add(sq));
    }
    document.getElementById("watch-table").replaceChildren(
      view.position.board ? board(view.position, last) : cards(view));
    document.getElementById("watch-spectators").textContent = fill(texts.watching, { n: view.spectators });
    document.getElementById("watch-moves").replaceChildren(...view.moves.map((m) =>
      el("li", "", `${m.player || "-"}: ${m.notation} (${m.score >= 0 ? "+" : ""}${m.score})`)));
    root.dataset.move = view.move_number;
  }

  async function poll() {
    try {
      const response = await fetch(`/api/v1/games/${root.dataset.game}/watch`,
        { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.ok) {
        const view = await response.json();
        if (!shown || view.move_number !== shown.move_number || view.status !== shown.status
            || view.spectators !== shown.spectators) render(view);
      }
    } catch (e) { /* offline for a moment: the next poll tries again */ }
  }

  render(JSON.parse(document.getElementById("watch-view").textContent));
  const seconds = Math.max(1, Number(root.dataset.poll) || 5);
  setInterval(poll, seconds * 1000);
})();
