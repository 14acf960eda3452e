// A game page follows the game without reloading: the player's event stream
// (GET /api/v1/events, EventSource with the session cookie) where the server offers it,
// otherwise polling the game with its ETag every few seconds while the page is visible.
// Either way the panel (#game-panel) is re-rendered by htmx on its "refresh" trigger.
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});
  let etag = null;
  let pollTimer = null;
  let source = null;

  function panel() { return document.getElementById("game-panel"); }
  function gameId() { const p = panel(); return p && p.dataset.game; }

  // One refresh at a time; a refresh asked for meanwhile (the computer answered while the
  // page was fetching the panel after your move) runs once the new panel is in, so the last
  // event is never lost to a response that was already under way.
  // A refresh whose end never reaches the document (its element swapped out before the
  // request went, a settle event on a detached element) must not hold every later one back:
  // after STUCK_MS it counts as over.
  const STUCK_MS = 8000;
  let inFlight = false;
  let again = false;
  let stuckTimer = null;
  // moveNumber: the game's move number an event reports (a turn's "deadline" or "your_turn"
  // of the move the panel already shows is no reason for a second re-render).
  let wanted = null;  // the newest such move number asked for while a refresh was under way
  C10S.refreshPanel = function (moveNumber) {
    const p = panel();
    if (!p || !window.htmx) return;
    const shown = Number(p.dataset.move);
    if (typeof moveNumber === "number" && !inFlight && moveNumber <= shown) return;
    if (inFlight) {
      if (typeof moveNumber === "number") wanted = Math.max(wanted === null ? -1 : wanted, moveNumber);
      else again = true;
      return;
    }
    inFlight = true;
    stuckTimer = setTimeout(refreshed, STUCK_MS);
    window.htmx.trigger(p, "refresh");
  };
  function refreshed() {
    if (!inFlight) return;
    inFlight = false;
    clearTimeout(stuckTimer);
    const p = panel();
    const behind = wanted !== null && (!p || wanted > Number(p.dataset.move));
    wanted = null;
    if (again || behind) { again = false; C10S.refreshPanel(); }
  }

  // An update keeps what the player is doing: the panels (<details> with an id) they opened
  // or closed stay so, unless the server changed what they hold (data-key: a new round).
  // Selection, staged tiles and focus are each game script's (htmx:beforeSwap/afterSettle).
  let openPanels = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const p = panel();
    if (!p || event.detail.target !== p) return;
    openPanels = {};
    p.querySelectorAll("details[id]").forEach(function (node) {
      openPanels[node.id] = { open: node.open, key: node.dataset.key || "" };
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    const p = panel();
    if (!p || !openPanels) return;
    p.querySelectorAll("details[id]").forEach(function (node) {
      const was = openPanels[node.id];
      if (was && was.key === (node.dataset.key || "")) node.open = was.open;
    });
    openPanels = null;
  });
  document.addEventListener("htmx:afterSettle", refreshed);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) refreshed();
  });

  // A game nobody joined yet is cancelled, not resigned (any kind's panel shows the button).
  document.addEventListener("click", async function (event) {
    const button = event.target.closest("[data-cancel-game]");
    if (!button) return;
    button.disabled = true;
    const r = await C10S.api("POST", "/api/v1/games/" + button.dataset.cancelGame + "/cancel", {});
    if (r.status === 200) { C10S.refreshPanel(); return; }
    button.disabled = false;
    const out = document.getElementById("cancel-error");
    if (out) {
      out.textContent = (r.body && r.body.error && r.body.error.message) || String(r.status);
      out.hidden = false;
    }
  });

  async function poll() {
    if (document.visibilityState !== "visible" || !gameId()) return;
    const headers = etag ? { "If-None-Match": etag } : {};
    try {
      const r = await C10S.api("GET", "/api/v1/games/" + gameId(), undefined, headers);
      if (r.status === 200) {
        const changed = etag !== null && r.headers.get("ETag") !== etag;
        etag = r.headers.get("ETag");
        const p = panel();
        if (changed || (p && r.body && String(r.body.move_number) !== p.dataset.move)) {
          C10S.refreshPanel();
        }
      }
    } catch (e) { /* offline for a moment: the next poll tries again */ }
  }

  function startPolling() {
    if (pollTimer) return;
    const seconds = Number((panel() && panel().dataset.poll) || 5);
    pollTimer = setInterval(poll, seconds * 1000);
    poll();
  }

  function startStream() {
    if (!window.EventSource) { document.body.dataset.live = "poll"; startPolling(); return; }
    source = new EventSource("/api/v1/events");
    const onEvent = function (event) {
      let data = {};
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (String(data.game) !== String(gameId())) { otherGame(event.type); return; }
      const sameMove = event.type === "deadline" || event.type === "your_turn" || event.type === "move";
      C10S.refreshPanel(sameMove && typeof data.move_number === "number" ? data.move_number : undefined);
    };
    ["move", "your_turn", "game_started", "game_finished", "deadline", "taken_over",
     "round_over", "match_over", "table_dealt", "table_joined", "table_left", "table_back",
     "rematch_accepted", "analysis_ready"]
      .forEach(function (type) { source.addEventListener(type, onEvent); });
    // A rematch answer: social.js reloads the page (document event "c10s:rematch").
    ["rematch_offered", "rematch_declined", "rematch_withdrawn"].forEach(function (type) {
      source.addEventListener(type, function (event) {
        let data = {};
        try { data = JSON.parse(event.data); } catch (e) { return; }
        if (String(data.game) === String(gameId())) {
          document.dispatchEvent(new CustomEvent("c10s:rematch", { detail: data }));
        }
      });
    });
    // Chat lines do not change the panel: social.js appends them (document event "c10s:chat").
    source.addEventListener("chat", function (event) {
      let data = {};
      try { data = JSON.parse(event.data); } catch (e) { return; }
      document.dispatchEvent(new CustomEvent("c10s:chat", { detail: data }));
    });
    source.addEventListener("resync", function () { C10S.refreshPanel(); otherGame("resync"); });
    let opened = false;
    source.onopen = function () {
      // Whatever happened between the page's rendering and the stream's start is not
      // replayed (a fresh stream has no Last-Event-ID): look once.
      if (!opened && gameId()) poll();
      opened = true;
      document.body.dataset.live = "stream";
    };
    source.onerror = function () {
      // Never opened (WSGI answers 501, a proxy refuses streams): poll instead. After an
      // open stream drops, EventSource reconnects itself with Last-Event-ID.
      if (!opened || source.readyState === EventSource.CLOSED) {
        source.close();
        document.body.dataset.live = "poll";
        if (gameId()) startPolling();  // other pages just keep what they show
      }
    };
  }

  // Your games live on every page: an event of another game (a new game, a turn that came
  // back, a result) refreshes the menu's badge, and on the home page the lists themselves
  // (their fragment brings the badge along). A burst of events is one refresh.
  const LISTED = ["move", "your_turn", "game_started", "game_finished", "resync"];
  let otherTimer = null;
  function otherGame(type) {
    if (LISTED.indexOf(type) < 0 || !window.htmx) return;
    clearTimeout(otherTimer);
    otherTimer = setTimeout(function () {
      const lists = document.getElementById("games-lists");
      if (lists) window.htmx.trigger(lists, "refresh");
      else if (document.getElementById("waiting-badge-slot")) {
        window.htmx.ajax("GET", "/games/badge", { target: "#waiting-badge-slot", swap: "innerHTML" });
      }
    }, 150);
  }
  // The tab's title leads with the number of games waiting for you: "(2) Your games · ...".
  function titleFollowsBadge() {
    const badge = document.getElementById("waiting-badge");
    const count = badge ? badge.textContent.trim() : "";
    const bare = document.title.replace(/^\(\d+\) /, "");
    document.title = count && count !== "0" ? "(" + count + ") " + bare : bare;
  }
  document.addEventListener("htmx:afterSettle", titleFollowsBadge);

  document.addEventListener("DOMContentLoaded", function () {
    // the table lobby follows its own stream (tables.js)
    if (!document.body.dataset.csrf || document.getElementById("table-panel")) return;
    startStream();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && pollTimer) poll();
    });
  });
})();
