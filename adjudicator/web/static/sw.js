// The service worker: every file of the page kept under one versioned cache, so the page
// opens and judges with the network off after one visit.  The list and the version are
// written in when the page is served or the site is built (adjudicator/web/site.py): a new
// version fills a new cache and drops the old one.  Anything not listed (the HTTP API of
// `adjudicator serve`) goes to the network as usual.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `adjudicator-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    // "no-cache": each file asked of the server afresh, but a file the page has just
    // fetched comes back as "not modified" from the browser's own cache, not downloaded
    // again; the engine waits for this install on a first visit and reads from it
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" })))).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("adjudicator-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // the page itself under its address with any query (a shared link's #record= never
  // reaches here); every other listed file by its own address
  const scope = new URL("./", self.location.href).pathname;
  const page = request.mode === "navigate" && (url.pathname === scope || url.pathname === `${scope}index.html`);
  const lookup = caches.open(CACHE).then((cache) => cache.match(page ? scope : request, { ignoreSearch: page }));
  event.respondWith(lookup.then((hit) => hit || fetch(request)));
});
