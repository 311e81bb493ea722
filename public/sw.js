// Dicebound's service worker: keeps the built files whose names carry their content's hash
// (/pkg/dicebound.<hash>.wasm, its chunks, the CSS, the chunks' loader) in a cache of its own and
// answers them from it, so an installed game opens without fetching them again. Everything else
// goes to the network as if it were not here: pages, the main JS module (rewritten after its
// name was hashed, so the server has it asked for again), /api/, server functions and the live
// stream are never cached. A new build's files get new names; the oldest are dropped past
// MAX_ENTRIES. Caches of an earlier version of this worker are deleted when it takes over.
// The server's rules for the same files: server/src/security/headers.rs.

const CACHE = "dicebound-pkg-v1";
const MAX_ENTRIES = 64;

/** Whether `path` is a built file named by its content's hash, and not the main JS module. */
function immutable(path) {
  if (!path.startsWith("/pkg/")) return false;
  const name = path.slice("/pkg/".length);
  const parts = name.split(".");
  const hashed = parts.length >= 3 && parts[1].length >= 16 && /^[A-Za-z0-9_-]+$/.test(parts[1]);
  const mainModule = name.endsWith(".js") && !name.startsWith("__wasm_split.");
  return hashed && !mainModule;
}

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !immutable(url.pathname)) return;
  event.respondWith(cacheFirst(request));
});

/** The cached answer, else the network's, kept when it is a whole success. */
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200 && response.type === "basic") {
    await cache.put(request, response.clone());
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) await cache.delete(old);
  }
  return response;
}
