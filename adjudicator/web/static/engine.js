// Where the page's calls go: to the server that served the page (fetch), or, on the static
// site (`adjudicator site OUT` marks its index.html with <meta name="adjudicator-engine"
// content="worker">), to the engine running in this browser in a Web Worker.  Both answer
// the same JSON: the worker runs the dispatcher the HTTP API runs.
//
// Also here: the start-up line (downloading, starting Python, loading the rules), the
// service worker's registration, and the embedding API's calls (window.adjudicator, made by
// adjudicator.js, the page's first script, before any import):
//   await adjudicator.ready                 the engine has started
//   await adjudicator.check(recordText)     the object `adjudicator check --json` prints
//   await adjudicator.legal(recordText, at) the object `adjudicator legal --json` prints

const META = document.querySelector('meta[name="adjudicator-engine"]');
export const mode = META && META.content === "worker" ? "worker" : "server";

// The words it shows are the page's (i18n.js's tr(), page.po); a page without i18n.js (a
// saved replay) speaks English. The engine starts before the words arrive: the start-up line
// waits for them.
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
const tr = (text, values) => (globalThis.pageLanguage ? globalThis.pageLanguage.tr(text, values) : fill(text, values));

const STAGES = {
  download: () => tr("Downloading the engine…"),
  python: () => tr("Starting Python…"),
  rules: () => tr("Loading the rules…"),
};
const noWasm = () =>
  tr("This browser cannot run the adjudicator itself (it has no WebAssembly); open the page from a laptop running adjudicator serve instead:");
const failedWith = (why) =>
  tr("The adjudicator could not start in this browser ({why}); open the page from a laptop running adjudicator serve instead:", { why });

// --- the start-up line ----------------------------------------------------------------------

let line = null;
let shown = null; // what the line says: [words(), failed], drawn once the page's words are in
let wordsIn = !globalThis.pageLanguage;

function status(words, failed = false) {
  shown = words ? [words, failed] : null;
  if (!wordsIn) return; // drawn when they come: never a flash of English
  if (line === null) {
    line = document.createElement("div");
    line.id = "engine";
    line.setAttribute("role", "status");
    line.className = "hint";
    (document.querySelector("main") || document.body).prepend(line);
  }
  line.replaceChildren();
  line.hidden = !words;
  if (!words) return;
  const said = document.createElement("p");
  said.textContent = words();
  line.append(said);
  if (failed) line.append(serverForm());
}

if (globalThis.pageLanguage) {
  globalThis.pageLanguage.ready.then(() => {
    wordsIn = true;
    if (shown) status(...shown);
  });
}

function serverForm() {
  // the other engine: the page as a laptop's `adjudicator serve` serves it
  const form = document.createElement("form");
  const label = document.createElement("label");
  label.htmlFor = "engine-server";
  label.textContent = tr("The server's address");
  const input = document.createElement("input");
  input.id = "engine-server";
  input.type = "url";
  input.placeholder = "http://192.168.1.20:8000/";
  input.autocomplete = "off";
  const go = document.createElement("button");
  go.type = "submit";
  go.textContent = tr("Open");
  form.append(label, input, go);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const address = input.value.trim();
    if (/^https?:\/\/[^\s]+$/i.test(address)) location.assign(address + location.hash);
  });
  return form;
}

// --- the two engines ----------------------------------------------------------------------

/** The page's language (i18n.js sets <html lang>): the engine's messages come in it. */
function language() {
  return (globalThis.document && document.documentElement.lang) || "en";
}

async function fetched(path, body) {
  let answer;
  try {
    answer = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "accept-language": language(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body,
    });
  } catch {
    const error = tr("the server at {host} did not answer: is adjudicator serve running, and the network on?", { host: location.host });
    return { status: 503, data: { error } };
  }
  try {
    return { status: answer.status, data: await answer.json() };
  } catch {
    return { status: answer.status, data: { error: tr("the server answered {status} without JSON", { status: answer.status }) } };
  }
}

let worker = null;
let answers = Promise.resolve({}); // what the site build answered already (routes that read no input)
const waiting = new Map();
let next = 0;
let ready;
let failure = null; // why the engine did not start, said in the page's language when shown
const inWords = (done) => (globalThis.pageLanguage ? globalThis.pageLanguage.ready.then(done, done) : done());

function startWorker() {
  let started, failed;
  ready = new Promise((resolve, reject) => { started = resolve; failed = reject; });
  ready.catch(() => {}); // the failure is shown on the page; callers see it when they await
  // in the page's language (the variants' titles, the house rules' descriptions), as serve answers
  answers = inWords(() => fetch(new URL(`static/answers/${language()}.json`, location.href)))
    .then((r) => r.json())
    .catch(() => ({}));
  if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
    failure = noWasm;
    status(failure, true);
    inWords(() => failed(new Error(failure())));
    return;
  }
  status(STAGES.download);
  let up = false; // the engine answered ready once: a worker lost later is started again
  const spawn = () => {
    worker = new Worker(new URL("static/worker.js", location.href), { type: "module" });
    worker.onmessage = (event) => {
      const message = event.data;
      if (message.progress) status(STAGES[message.progress]);
      else if (message.ready) { up = true; status(""); started(); }
      else if (message.failed) fail(message.failed);
      else if (message.crashed) restart();
      else {
        const settle = waiting.get(message.id);
        waiting.delete(message.id);
        settle({ status: message.status, data: JSON.parse(message.text) });
      }
    };
    worker.onerror = (event) => (up ? restart() : fail(event.message || tr("the worker stopped")));
  };
  function restart() {
    // Python died of a record (out of stack or memory): its calls are refused in one line
    // and a fresh engine starts for the next record, the page's files from its cache
    const error = tr("the engine in this browser stopped on this record (too large for it); it starts again for the next one");
    worker.terminate();
    for (const settle of waiting.values()) settle({ status: 500, data: { error } });
    waiting.clear();
    spawn();
  }
  function fail(why) {
    failure = () => failedWith(why);
    status(failure, true);
    inWords(() => failed(new Error(failure())));
    for (const settle of waiting.values()) settle({ status: 503, data: { error: failure() } });
    waiting.clear();
  }
  kept().then(spawn);
}

// A heavy record (70,000 actions) takes the engine seconds: the work is the worker's, the
// page stays tappable, and the start-up line says it is being judged, with the seconds.
let ticking = null;

function watch() {
  if (ticking !== null) return;
  const since = performance.now();
  ticking = setInterval(() => {
    const ours = shown === null || shown[0].judging; // never over the start-up line or a failure
    if (!waiting.size) {
      clearInterval(ticking);
      ticking = null;
      if (shown && shown[0].judging) status("");
      return;
    }
    const seconds = Math.round((performance.now() - since) / 1000);
    if (!ours || seconds < 1) return;
    const words = () => tr("Judging the record… {seconds} s", { seconds });
    words.judging = true;
    status(words);
  }, 500);
}

function posted(path, body) {
  const [where, query = ""] = path.split("?");
  return new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    watch();
    const asked = `${query ? query + "&" : ""}lang=${encodeURIComponent(language())}`; // the messages' language
    worker.postMessage({ id, method: body === undefined ? "GET" : "POST", path: where, query: asked, body: body ?? null });
  });
}

/** One of the page's calls: path (with its query) and the body's text, or undefined for GET. */
export async function call(path, body) {
  if (mode === "server") return fetched(path, body);
  const known = (await answers)[`${body === undefined ? "GET" : "POST"} ${path}`];
  if (known) return { status: known[0], data: JSON.parse(known[1]) };
  if (worker === null) {
    try { await ready; } catch (err) { return { status: 503, data: { error: failure ? failure() : err.message } }; }
  }
  return posted(path, body);
}

// --- the service worker: the page's files kept for the network being off ----------------------

const registering = "serviceWorker" in navigator && window.isSecureContext
  ? navigator.serviceWorker.register("sw.js").catch(() => null)
  : Promise.resolve(null);

/** On a first visit, the service worker's install: it downloads every file of the site once,
 * and the engine started after it fetches through it (from its cache), not a second time.
 * Without one (no HTTPS, refused, a hard reload past it) the engine fetches for itself. */
async function kept() {
  const registration = await registering;
  if (!registration || navigator.serviceWorker.controller) return;
  const coming = registration.installing || registration.waiting;
  if (!coming) return;
  await new Promise((done) => {
    navigator.serviceWorker.addEventListener("controllerchange", done, { once: true });
    coming.addEventListener("statechange", () => coming.state === "redundant" && done());
    if (navigator.serviceWorker.controller || coming.state === "redundant") done();
  });
}

if (mode === "worker") startWorker();
else ready = Promise.resolve();

// --- the embedding API ----------------------------------------------------------------------

async function data(path, body) {
  const { status: code, data: value } = await call(path, body);
  if (code >= 400 && !(path === "/api/check" && code === 422)) throw new Error(value.error || `status ${code}`);
  return value;
}

const started = ready.then(() => true);
started.catch(() => {}); // shown on the page; whoever awaits it sees the reason

const embedding = {
  engine: mode,
  ready: started,
  check: (recordText) => data("/api/check", String(recordText)),
  legal: (recordText, at) =>
    data(at === undefined || at === null ? "/api/legal" : `/api/legal?at=${encodeURIComponent(at)}`, String(recordText)),
};
// adjudicator.js, the page's first script, made window.adjudicator already: it gets the
// calls; a page without it (an app's own, loading only this module) gets them here
const attach = globalThis.adjudicator && globalThis.adjudicator[Symbol.for("adjudicator.attach")];
if (attach) attach(embedding);
else window.adjudicator = Object.freeze(embedding);
