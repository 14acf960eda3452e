// Crazy10s Online: small helpers every page uses (no build step, no framework).
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});

  // Texts the server translated for this page (script type=application/json blocks).
  C10S.texts = function (id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : {};
  };

  // JSON API call with the session cookie and the CSRF token; resolves to {status, body}.
  C10S.api = async function (method, url, body, headers) {
    const init = {
      method: method,
      credentials: "same-origin",
      headers: Object.assign({ Accept: "application/json" }, headers || {}),
    };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.headers["X-CSRFToken"] = document.body.dataset.csrf;
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    let data = null;
    if (response.status !== 204 && response.status !== 304) {
      try { data = await response.json(); } catch (e) { data = null; }
    }
    return { status: response.status, body: data, headers: response.headers };
  };

  // "3 h 12 min left" beside every <time data-countdown>.
  function countdowns() {
    const texts = C10S.texts("web-texts");
    document.querySelectorAll("time[data-countdown]").forEach(function (node) {
      const ms = new Date(node.getAttribute("datetime")) - new Date();
      if (ms <= 0) { node.textContent = texts.over || "0"; return; }
      const min = Math.floor(ms / 60000), h = Math.floor(min / 60), d = Math.floor(h / 24);
      const u = (key) => texts[key] || key;
      const text = d >= 1 ? d + " " + u("d") + " " + (h % 24) + " " + u("h")
        : h >= 1 ? h + " " + u("h") + " " + (min % 60) + " " + u("min")
        : Math.max(min, 0) + " " + u("min") + " " + Math.floor((ms / 1000) % 60) + " " + u("s");
      node.textContent = text + (texts.left ? " " + texts.left : "");
    });
  }
  C10S.countdowns = countdowns;

  document.addEventListener("DOMContentLoaded", function () {
    countdowns();
    setInterval(countdowns, 1000);
    // The language switcher submits itself (its button stays for keyboards without scripts).
    document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      select.addEventListener("change", function () { select.form.submit(); });
    });
  });
  document.addEventListener("htmx:afterSwap", countdowns);
})();
