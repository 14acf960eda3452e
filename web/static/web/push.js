// Crazy10s Online as an installed app: registers the service worker (/sw.js), tells it the
// page's language (for the offline page), sets the app badge on page load, and offers push
// notifications: the button in Settings, and a one-time offer after the first move of a game.
// Permission is only ever asked after a click.
"use strict";
(function () {
  const C10S = (window.C10S = window.C10S || {});
  const supported = "serviceWorker" in navigator;
  const pushSupported = supported && "PushManager" in window && "Notification" in window;
  const OFFERED_KEY = "c10s-push-offered";

  function b64urlToBytes(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(padded);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  async function registration() {
    return navigator.serviceWorker.ready;
  }

  // Subscribe this browser and store the subscription against this sign-in.
  C10S.enablePush = async function () {
    if (!pushSupported) return "unsupported";
    const permission = await Notification.requestPermission();
    if (permission !== "granted") return permission;
    const settings = await C10S.api("GET", "/api/v1/me/push");
    if (settings.status !== 200 || !settings.body.public_key) return "unavailable";
    const reg = await registration();
    let subscription = await reg.pushManager.getSubscription();
    if (!subscription) {
      subscription = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: b64urlToBytes(settings.body.public_key),
      });
    }
    const stored = await C10S.api("POST", "/api/v1/me/push/subscriptions", subscription.toJSON());
    if (stored.status !== 200 && stored.status !== 201) return "refused";
    localStorage.setItem("c10s-push-id", String(stored.body.id));
    return "granted";
  };

  C10S.disablePush = async function () {
    if (!supported) return;
    const reg = await registration();
    const subscription = await reg.pushManager.getSubscription();
    if (subscription) await subscription.unsubscribe();
    const id = localStorage.getItem("c10s-push-id");
    if (id) await C10S.api("DELETE", "/api/v1/me/push/subscriptions/" + id);
    localStorage.removeItem("c10s-push-id");
  };

  async function pushState() {
    if (!pushSupported) return "unsupported";
    if (Notification.permission === "denied") return "denied";
    const reg = await registration();
    const subscription = await reg.pushManager.getSubscription();
    return subscription && Notification.permission === "granted" ? "on" : "off";
  }

  // Settings: "Notifications on this device" and "Install the app".
  async function deviceSection() {
    const section = document.getElementById("push-device");
    if (!section) return;
    const texts = C10S.texts("push-texts");
    const status = document.getElementById("push-status");
    const on = document.getElementById("push-enable");
    const off = document.getElementById("push-disable");
    async function show() {
      const state = await pushState();
      status.textContent = texts[state] || "";
      on.hidden = state !== "off";
      off.hidden = state !== "on";
    }
    on.addEventListener("click", async function () {
      on.disabled = true;
      const result = await C10S.enablePush();
      on.disabled = false;
      if (result !== "granted") status.textContent = texts[result] || texts.off;
      else await show();
    });
    off.addEventListener("click", async function () { await C10S.disablePush(); await show(); });
    await show();
  }

  let installPrompt = null;
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();
    installPrompt = event;
    const entry = document.getElementById("install-app");
    if (entry) entry.hidden = false;
  });
  function installEntry() {
    const button = document.getElementById("install-button");
    if (!button) return;
    button.addEventListener("click", async function () {
      if (!installPrompt) return;
      installPrompt.prompt();
      await installPrompt.userChoice;
      installPrompt = null;
      document.getElementById("install-app").hidden = true;
    });
  }

  // The one-time offer after the first move (board.js and crazy_eights.js send c10s:moved).
  document.addEventListener("c10s:moved", async function () {
    const offer = document.getElementById("push-offer");
    if (!offer || localStorage.getItem(OFFERED_KEY)) return;
    if ((await pushState()) !== "off" || Notification.permission !== "default") return;
    localStorage.setItem(OFFERED_KEY, "1");
    offer.hidden = false;
    document.getElementById("push-offer-yes").addEventListener("click", async function () {
      await C10S.enablePush();
      offer.hidden = true;
    });
    document.getElementById("push-offer-no").addEventListener("click", function () { offer.hidden = true; });
  });

  function badge() {
    const count = Number(document.body.dataset.waiting || "0");
    if (navigator.setAppBadge) {
      (count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(function () {});
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!supported) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      const language = document.documentElement.lang;
      if (reg.active) reg.active.postMessage({ type: "language", language: language });
    }).catch(function () { /* no worker: the site works as before */ });
    if (document.body.dataset.signedIn === "1") badge();
    deviceSection();
    installEntry();
  });
})();
