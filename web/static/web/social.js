// Chat, rematch, friends, blocking and the social settings: every change through the JSON API
// (session cookie + CSRF), the page then refreshes its part. Chat text is always put in the
// page as text (textContent), never as HTML: a link stays a piece of text.
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});

  function texts(id) { return C10S.texts(id); }
  function show(node, message) {
    if (!node) return;
    node.textContent = message || "";
    node.hidden = !message;
  }
  function errorOf(r, fallback) {
    return (r.body && r.body.error && r.body.error.message) || fallback;
  }

  // --- chat -------------------------------------------------------------------------------
  const chat = { game: null, seen: new Set(), timer: null };

  function addLine(m) {
    if (chat.seen.has(m.id)) return;
    chat.seen.add(m.id);
    const log = document.getElementById("chat-log");
    if (!log) return;
    const li = document.createElement("li");
    li.className = "chat-line" + (m.by_you ? " mine" : "");
    li.dataset.id = m.id;
    const who = document.createElement("strong");
    const name = m.by_you ? (texts("chat-texts").you || m.name) : (m.name || "?");
    // the author's profile (names are cut to their room: the whole one is the title)
    const label = m.username && !m.by_you ? document.createElement("a") : document.createElement("span");
    if (m.username && !m.by_you) label.href = "/players/" + encodeURIComponent(m.username);
    label.className = "name";
    label.title = name;
    label.textContent = name;
    who.appendChild(label);
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = m.text;
    li.append(who, ": ", text);
    log.appendChild(li);
    log.scrollTop = log.scrollHeight;
  }

  async function loadChat() {
    if (!chat.game) return;
    try {
      const r = await C10S.api("GET", "/api/v1/games/" + chat.game + "/chat");
      if (r.status !== 200) return;
      const t = texts("chat-texts");
      const mute = document.getElementById("chat-mute");
      if (mute) {
        mute.dataset.muted = r.body.muted ? "1" : "0";
        mute.textContent = r.body.muted ? t.unmute : t.mute;
      }
      const note = r.body.muted_everywhere ? t.muted_everywhere : r.body.muted ? t.muted : "";
      const error = document.getElementById("chat-error");
      if (note) show(error, note);
      r.body.messages.forEach(addLine);
    } catch (e) { /* offline for a moment: the next look tries again */ }
  }

  function initChat() {
    const section = document.getElementById("chat");
    if (!section) return;
    chat.game = section.dataset.game;
    loadChat();
    document.addEventListener("c10s:chat", function (event) {
      if (String(event.detail.game) === String(chat.game)) addLine(event.detail);
    });
    // Without an event stream the page polls; the chat looks at the same pace.
    chat.timer = setInterval(function () {
      if (document.body.dataset.live === "poll" && document.visibilityState === "visible") {
        loadChat();
      }
    }, 5000);
    document.getElementById("chat-form").addEventListener("submit", async function (event) {
      event.preventDefault();
      const input = document.getElementById("chat-text");
      const error = document.getElementById("chat-error");
      if (!input.value.trim()) return;
      try {
        const r = await C10S.api("POST", "/api/v1/games/" + chat.game + "/chat",
                                 { text: input.value });
        if (r.status === 201) { input.value = ""; show(error, ""); addLine(r.body); }
        else show(error, errorOf(r, texts("chat-texts").network));
      } catch (e) { show(error, texts("chat-texts").network); }
    });
    document.getElementById("chat-mute").addEventListener("click", async function (event) {
      const muted = event.target.dataset.muted === "1";
      await C10S.api(muted ? "DELETE" : "POST", "/api/v1/games/" + chat.game + "/chat/mute", {});
      document.getElementById("chat-log").textContent = "";
      chat.seen.clear();
      show(document.getElementById("chat-error"), "");
      loadChat();
    });
  }

  // --- rematch (inside the panel: delegated, the panel is replaced after each event) -------
  async function rematch(button) {
    const box = button.closest(".rematch");
    const url = "/api/v1/games/" + box.dataset.game + "/rematch";
    const error = document.getElementById("rematch-error");
    try {
      const r = button.dataset.rematch === "offer"
        ? await C10S.api("POST", url, {}) : await C10S.api("DELETE", url, {});
      if (r.status >= 400) { show(error, errorOf(r, "")); return; }
      if (r.body && r.body.new_game) { window.location.href = "/games/" + r.body.new_game; return; }
      // A whole reload rather than the panel's refresh: the answer must show even when a
      // refresh is already under way (the panel's refreshes are coalesced in live.js).
      window.location.reload();
    } catch (e) { show(error, texts("c10s-texts").network || ""); }
  }

  // --- friends, blocking, social settings -----------------------------------------------------
  function friendsError(message) { show(document.getElementById("friends-error"), message); }

  async function friend(button) {
    const item = button.closest("[data-username]");
    const name = encodeURIComponent(item.dataset.username);
    const action = button.dataset.friend;
    let r;
    try {
      if (action === "accept") r = await C10S.api("POST", "/api/v1/me/friends/" + name + "/accept", {});
      else if (action === "remove") r = await C10S.api("DELETE", "/api/v1/me/friends/" + name, {});
      else if (action === "play") r = await C10S.api("POST", "/api/v1/me/friends/" + name + "/play", {});
      else r = await C10S.api("POST", "/api/v1/me/friends", { username: item.dataset.username });
    } catch (e) { friendsError(texts("social-texts").network); return; }
    if (r.status >= 400) { friendsError(errorOf(r, texts("social-texts").network)); return; }
    if (action === "play") { window.location.href = "/games/" + r.body.id; return; }
    window.location.reload();
  }

  async function block(button) {
    const item = button.closest("[data-username]");
    const name = encodeURIComponent(item.dataset.username);
    const blocking = button.dataset.block === "block";
    if (blocking && !window.confirm(texts("social-texts").confirm_block || "?")) return;
    let r;
    try {
      r = await C10S.api(blocking ? "POST" : "DELETE", "/api/v1/players/" + name + "/block", {});
    } catch (e) { friendsError(texts("social-texts").network); return; }
    if (r.status >= 400) { friendsError(errorOf(r, texts("social-texts").network)); return; }
    window.location.reload();
  }

  async function socialSetting(input) {
    const body = {};
    body[input.dataset.social] = input.checked;
    const status = document.getElementById("social-saved");
    try {
      const r = await C10S.api("PATCH", "/api/v1/me/social", body);
      status.textContent = r.status === 200 ? texts("social-texts").saved : errorOf(r, "");
    } catch (e) { status.textContent = texts("social-texts").network; }
  }

  document.addEventListener("click", function (event) {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const r = target.closest("[data-rematch]");
    if (r) { rematch(r); return; }
    const f = target.closest("[data-friend]");
    if (f) { friend(f); return; }
    const b = target.closest("[data-block]");
    if (b) block(b);
  });
  document.addEventListener("change", function (event) {
    if (event.target instanceof Element && event.target.matches("[data-social]")) {
      socialSetting(event.target);
    }
  });

  // The other player offered, declined or withdrew a rematch: show it (a whole reload, like
  // one's own answer; the game is over, nothing is being staged).
  document.addEventListener("c10s:rematch", function () {
    if (document.getElementById("rematch")) window.location.reload();
  });

  document.addEventListener("DOMContentLoaded", function () {
    initChat();
    const form = document.getElementById("friend-form");
    if (form) {
      form.addEventListener("submit", async function (event) {
        event.preventDefault();
        const name = document.getElementById("friend-name").value.trim();
        if (!name) return;
        let r;
        try { r = await C10S.api("POST", "/api/v1/me/friends", { username: name }); }
        catch (e) { friendsError(texts("social-texts").network); return; }
        if (r.status >= 400) { friendsError(errorOf(r, texts("social-texts").network)); return; }
        window.location.reload();
      });
    }
  });
})();
