// Tic-tac-toe's widget: a tap on a free square plays it through the API (the panel is then
// re-rendered by live.js when the move's event arrives, or at once here).
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});
  document.addEventListener("click", async function (event) {
    const panel = document.getElementById("game-panel");
    const square = event.target.closest(".ttt-square");
    const resign = event.target.closest("#ttt-resign");
    if (!panel || (!square && !resign)) return;
    const game = panel.dataset.game;
    const r = square
      ? await C10S.api("POST", "/api/v1/games/" + game + "/moves",
          { square: square.dataset.square, expected_move_number: Number(panel.dataset.move) })
      : await C10S.api("POST", "/api/v1/games/" + game + "/resign");
    if (r.status >= 400) {
      const node = document.getElementById("move-error");
      node.textContent = (r.body && r.body.error && r.body.error.message) || String(r.status);
      node.hidden = false;
    }
    if (C10S.refreshPanel) C10S.refreshPanel();
  });
})();
