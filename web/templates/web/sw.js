// Crazy10s Online service worker, version {{ version }} (rendered by web/views/app.py; a new
// version replaces this one and deletes its caches).
//
// - Pages are always fetched from the network (a game shows the server's board, never a
//   cached one); without a network a page shows the cached offline page, in the language the
//   pages last told this worker.
// - The app shell (static files every page needs, the offline pages) is cached at install;
//   other static files (their names carry a hash of their content) are cached when first used.
// - The API, the event streams and everything else are never touched.
// - Push: shows the notification of a game under the tag "game-{id}" (a newer one replaces it),
//   closes it on a "clear" push, sets the app badge; a click focuses or opens the game.
"use strict";
const VERSION = "{{ version }}";
const CACHE = "c10s-shell-" + VERSION;
const SHELL = {{ shell|safe }};
const LANGUAGES = {{ languages|safe }};
const ICON = "{{ icon }}";
const BADGE_ICON = "{{ badge_icon }}";
const LANGUAGE_KEY = "/__c10s/language";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith("c10s-shell-") && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

async function language() {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(LANGUAGE_KEY);
  const code = stored ? await stored.text() : "";
  return LANGUAGES.includes(code) ? code : LANGUAGES[0];
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "language" && LANGUAGES.includes(data.language)) {
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(LANGUAGE_KEY, new Response(data.language))));
  }
  if (data.type === "badge") event.waitUntil(setBadge(data.count));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      try {
        return await fetch(request);
      } catch (error) {
        const cache = await caches.open(CACHE);
        return (await cache.match("/offline/" + (await language()))) || Response.error();
      }
    })());
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith((async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(request);
      if (hit) return hit;
      const response = await fetch(request);
      if (response.ok) cache.put(request, response.clone());
      return response;
    })());
  }
});

async function setBadge(count) {
  if (typeof count !== "number" || !self.navigator.setAppBadge) return;
  try {
    if (count > 0) await self.navigator.setAppBadge(count);
    else await self.navigator.clearAppBadge();
  } catch (error) { /* the platform may not offer a badge */ }
}

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  event.waitUntil((async () => {
    await setBadge(data.badge);
    if (data.type === "clear") {
      const shown = await self.registration.getNotifications({ tag: data.tag });
      shown.forEach((n) => n.close());
      return;
    }
    if (!data.title) return;
    await self.registration.showNotification(data.title, {
      body: data.body || "",
      tag: data.tag,
      renotify: true,
      lang: data.lang,
      icon: ICON,
      badge: BADGE_ICON,
      timestamp: Date.now(),
      data: { url: data.url || "/", game: data.game, type: data.type },
    });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).pathname === target.pathname);
    if (open) return open.focus();
    return self.clients.openWindow(target.href);
  })());
});
