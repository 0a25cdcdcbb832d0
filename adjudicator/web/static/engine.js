// Where the page's calls go: to the server that served the page (fetch), or, on the static
// site (`adjudicator site OUT` marks its index.html with <meta name="adjudicator-engine"
// content="worker">), to the engine running in this browser in a Web Worker.  Both answer
// the same JSON: the worker runs the dispatcher the HTTP API runs.
//
// Also here: the start-up line (downloading, starting Python, loading the rules), the
// service worker's registration, and the embedding API, window.adjudicator:
//   await adjudicator.ready                 the engine has started
//   await adjudicator.check(recordText)     the object `adjudicator check --json` prints
//   await adjudicator.legal(recordText, at) the object `adjudicator legal --json` prints

const META = document.querySelector('meta[name="adjudicator-engine"]');
export const mode = META && META.content === "worker" ? "worker" : "server";

const STAGES = {
  download: "Downloading the engine…",
  python: "Starting Python…",
  rules: "Loading the rules…",
};
const INSTEAD = "open the page from a laptop running adjudicator serve instead:";
const NO_WASM = `This browser cannot run the adjudicator itself (it has no WebAssembly); ${INSTEAD}`;
const failedWith = (why) =>
  `The adjudicator could not start in this browser (${why}); ${INSTEAD}`;

// --- the start-up line ----------------------------------------------------------------------

let line = null;

function status(text, failed = false) {
  if (line === null) {
    line = document.createElement("div");
    line.id = "engine";
    line.setAttribute("role", "status");
    line.className = "hint";
    (document.querySelector("main") || document.body).prepend(line);
  }
  line.replaceChildren();
  line.hidden = !text;
  if (!text) return;
  const words = document.createElement("p");
  words.textContent = text;
  line.append(words);
  if (failed) line.append(serverForm());
}

function serverForm() {
  // the other engine: the page as a laptop's `adjudicator serve` serves it
  const form = document.createElement("form");
  const label = document.createElement("label");
  label.htmlFor = "engine-server";
  label.textContent = "The server's address";
  const input = document.createElement("input");
  input.id = "engine-server";
  input.type = "url";
  input.placeholder = "http://192.168.1.20:8000/";
  input.autocomplete = "off";
  const go = document.createElement("button");
  go.type = "submit";
  go.textContent = "Open";
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
    const error = `the server at ${location.host} did not answer: is adjudicator serve running, and the network on?`;
    return { status: 503, data: { error } };
  }
  try {
    return { status: answer.status, data: await answer.json() };
  } catch {
    return { status: answer.status, data: { error: `the server answered ${answer.status} without JSON` } };
  }
}

let worker = null;
let answers = Promise.resolve({}); // what the site build answered already (routes that read no input)
const waiting = new Map();
let next = 0;
let ready;

function startWorker() {
  let started, failed;
  ready = new Promise((resolve, reject) => { started = resolve; failed = reject; });
  ready.catch(() => {}); // the failure is shown on the page; callers see it when they await
  answers = fetch(new URL("static/answers.json", location.href)).then((r) => r.json()).catch(() => ({}));
  if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
    status(NO_WASM, true);
    failed(new Error(NO_WASM));
    return;
  }
  status(STAGES.download);
  worker = new Worker(new URL("static/worker.js", location.href), { type: "module" });
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.progress) status(STAGES[message.progress]);
    else if (message.ready) { status(""); started(); }
    else if (message.failed) fail(message.failed);
    else {
      const settle = waiting.get(message.id);
      waiting.delete(message.id);
      settle({ status: message.status, data: JSON.parse(message.text) });
    }
  };
  worker.onerror = (event) => fail(event.message || "the worker stopped");
  function fail(why) {
    const sentence = failedWith(why);
    status(sentence, true);
    failed(new Error(sentence));
    for (const settle of waiting.values()) settle({ status: 503, data: { error: sentence } });
    waiting.clear();
  }
}

function posted(path, body) {
  const [where, query = ""] = path.split("?");
  return new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
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
    try { await ready; } catch (err) { return { status: 503, data: { error: err.message } }; }
  }
  return posted(path, body);
}

if (mode === "worker") startWorker();
else ready = Promise.resolve();

// --- the service worker: the page's files kept for the network being off ----------------------

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("sw.js").catch(() => {});
}

// --- the embedding API ----------------------------------------------------------------------

async function data(path, body) {
  const { status: code, data: value } = await call(path, body);
  if (code >= 400 && !(path === "/api/check" && code === 422)) throw new Error(value.error || `status ${code}`);
  return value;
}

const started = ready.then(() => true);
started.catch(() => {}); // shown on the page; whoever awaits it sees the reason

window.adjudicator = Object.freeze({
  engine: mode,
  ready: started,
  check: (recordText) => data("/api/check", String(recordText)),
  legal: (recordText, at) =>
    data(at === undefined || at === null ? "/api/legal" : `/api/legal?at=${encodeURIComponent(at)}`, String(recordText)),
});
