// Tables with friends: opening one (the new-game page) and its lobby (/tables/<code>): share
// the link, take a seat, leave, deal (the host), invite by username. Every action goes to the
// tables API; the lobby is re-rendered by htmx when the player's event stream reports the
// table (someone joined or left, the cards were dealt), or, without a stream, when polling
// the table shows a change. Once the cards are dealt a seated player goes to the match.
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});
  const $ = (sel) => document.querySelector(sel);
  const lobby = () => document.getElementById("table-panel");
  const texts = () => C10S.texts("table-texts");
  const errorOf = (r) => (r.body && r.body.error && r.body.error.message) || String(r.status);
  let last = null;
  let pollTimer = null;

  function say(id, message) {
    const node = document.getElementById(id);
    if (!node) return;
    node.textContent = message || "";
    if (node.classList.contains("error")) node.hidden = !message;
  }

  // One refresh at a time (htmx drops a request asked for while one is under way): a refresh
  // asked for meanwhile runs once the new lobby is in, so the newest change always shows.
  // A refresh whose end never reaches the document counts as over after 8 s (as in live.js).
  let inFlight = false;
  let again = false;
  let stuckTimer = null;
  function refresh() {
    const p = lobby();
    if (!p || !window.htmx) return;
    if (inFlight) { again = true; return; }
    inFlight = true;
    stuckTimer = setTimeout(refreshed, 8000);
    window.htmx.trigger(p, "refresh");
  }
  function refreshed() {
    if (!inFlight) return;
    inFlight = false;
    clearTimeout(stuckTimer);
    if (again) { again = false; refresh(); }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) refreshed();
  });

  // Once: the host's deal answer and the table_dealt event both lead to the match, and a
  // second navigation would abort the first one half-way.
  let leaving = false;
  function go(url) {
    if (leaving) return;
    leaving = true;
    window.location.assign(url);
  }

  function follow() {
    const p = lobby();
    if (p && p.dataset.go) go(p.dataset.go);
  }

  async function act(path, body) {
    let r;
    try { r = await C10S.api("POST", path, body || {}); } catch (e) { say("table-error", texts().network); return null; }
    if (r.status !== 200 && r.status !== 201) { say("table-error", errorOf(r)); return null; }
    return r.body;
  }

  // The kind's options of a form as JSON: fields named "options.a.b" nest ({a: {b: ...}}); a
  // box is true or false, a field marked data-type="number" a number.
  function optionsOf(form) {
    const options = {};
    Array.from(form.elements).forEach(function (field) {
      if (!field.name || !field.name.startsWith("options.")) return;
      const path = field.name.split(".").slice(1);
      let value = field.value;
      if (field.type === "checkbox") value = field.checked;
      else if (field.dataset.type === "number") value = value === "" ? null : Number(value);
      let node = options;
      path.slice(0, -1).forEach(function (key) { node = node[key] = node[key] || {}; });
      node[path[path.length - 1]] = value;
    });
    return options;
  }

  // --- the new-game page: open a table ---------------------------------------------------
  document.addEventListener("submit", async function (event) {
    const form = event.target;
    if (form.classList.contains("new-table")) {
      event.preventDefault();
      const kind = form.dataset.kind;
      const error = "new-table-error-" + kind;
      let r;
      try {
        r = await C10S.api("POST", "/api/v1/tables", { kind: kind, options: optionsOf(form) });
      } catch (e) { say(error, texts().network); return; }
      if (r.status === 201) window.location.assign("/tables/" + r.body.code);
      else say(error, errorOf(r));
    } else if (form.id === "invite-form") {
      event.preventDefault();
      const code = lobby().dataset.code;
      const table = await act("/api/v1/tables/" + code + "/invite", { username: form.username.value.trim() });
      if (table) { say("invite-status", texts().invited); form.reset(); }
    }
  });

  // --- the lobby ---------------------------------------------------------------------------
  document.addEventListener("click", async function (event) {
    const target = event.target.closest("button");
    const p = lobby();
    if (!target || !p || !p.contains(target)) return;
    const code = p.dataset.code;
    switch (target.id) {
      case "join": if (await act("/api/v1/tables/" + code + "/join")) refresh(); break;
      case "leave":
        if (await act("/api/v1/tables/" + code + "/leave")) refresh();  // joining again undoes it
        break;
      case "deal": {
        const table = await act("/api/v1/tables/" + code + "/deal");
        if (table && table.game_id) go("/games/" + table.game_id);
        break;
      }
      case "share": {
        const link = $("#share-link").value;
        if (navigator.share) {
          try { await navigator.share({ title: texts().share_title, url: link }); return; } catch (e) { /* cancelled: copy */ }
        }
        try {
          await navigator.clipboard.writeText(link);
          say("share-status", texts().copied);
        } catch (e) { $("#share-link").select(); }  // no clipboard (plain http): select it
        break;
      }
    }
  });

  async function poll() {
    const p = lobby();
    if (!p || document.visibilityState !== "visible") return;
    try {
      const r = await C10S.api("GET", "/api/v1/tables/" + p.dataset.code);
      if (r.status !== 200) return;
      const seen = JSON.stringify(r.body);
      if (last !== null && seen !== last) refresh();
      last = seen;
    } catch (e) { /* offline for a moment: the next poll tries again */ }
  }

  function startPolling() {
    if (pollTimer) return;
    document.body.dataset.live = "poll";
    pollTimer = setInterval(poll, Number(lobby().dataset.poll || 5) * 1000);
    poll();
  }

  function listen() {
    if (!window.EventSource) { startPolling(); return; }
    const source = new EventSource("/api/v1/events");
    const onEvent = function (event) {
      let data = {};
      try { data = JSON.parse(event.data); } catch (e) { return; }
      const p = lobby();
      if (p && data.table === p.dataset.code) refresh();
    };
    ["table_joined", "table_left", "table_back", "table_dealt"].forEach(function (type) {
      source.addEventListener(type, onEvent);
    });
    source.addEventListener("resync", refresh);
    let opened = false;
    source.onopen = function () {
      if (!opened) refresh();  // whatever happened before the stream opened
      opened = true;
      document.body.dataset.live = "stream";
    };
    source.onerror = function () {
      if (!opened || source.readyState === EventSource.CLOSED) { source.close(); startPolling(); }
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!lobby()) return;
    follow();
    listen();
  });
  document.addEventListener("htmx:afterSettle", function () { refreshed(); follow(); });
})();
