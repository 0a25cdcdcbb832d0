// The in-browser engine: Pyodide and the project's wheels, every file from this site's own
// origin, answering the page's calls through adjudicator's one dispatcher (routes.answer),
// the same function the HTTP API calls.  A module worker (Pyodide's loader is a module).
//
// In:  {id, method, path, query, body}    Out: {id, status, text}, or {id, crashed: why}
// when Python itself died (the page then starts a fresh worker).
// While starting: {progress: "download" | "python" | "rules"}; then {ready: true} or
// {failed: "one sentence"}.

const ROOT = new URL("../", self.location.href); // the site's folder (this file is static/worker.js)
const at = (path) => new URL(path, ROOT).href;
const progress = (stage) => postMessage({ progress: stage });

async function wheels() {
  const listing = await fetch(at("wheels/wheels.json"));
  if (!listing.ok) throw new Error(`wheels/wheels.json: ${listing.status}`);
  const names = await listing.json();
  return Promise.all(
    names.map(async (name) => {
      const got = await fetch(at(`wheels/${name}`));
      if (!got.ok) throw new Error(`wheels/${name}: ${got.status}`);
      return got.arrayBuffer();
    }),
  );
}

async function start() {
  if (typeof WebAssembly !== "object") throw new Error("no WebAssembly");
  progress("download");
  const fetched = wheels(); // beside the interpreter's own download
  const { loadPyodide } = await import(at("pyodide/pyodide.mjs"));
  progress("python");
  const pyodide = await loadPyodide({ indexURL: at("pyodide/"), fullStdLib: false });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const wheel of await fetched) pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  progress("rules");
  const answer = pyodide.pyimport(ROUTES).answer;
  // the first answer builds the rules (pydantic's models, every preset): do it before a tap waits
  call(answer, "GET", "/api/variants", "", null);
  return answer;
}

function call(answer, method, path, query, body) {
  let result;
  try {
    result = answer(method, path, query, body);
    const [status, text] = result.toJs();
    return { status, text };
  } finally {
    if (result) result.destroy();
  }
}

const ROUTES = "adjudicator.service.routes";

function lastLine(text) {
  // a Python traceback's own line ("ModuleNotFoundError: ..."), not Pyodide's advice after it
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  return lines.filter((l) => /^[A-Za-z_.]*(Error|Exception)\b/.test(l)).pop() || lines[0] || "unknown";
}
const engine = start();
engine.then(
  () => postMessage({ ready: true }),
  (err) => postMessage({ failed: lastLine(String((err && err.message) || err)) }),
);

let broken = null; // what killed Python (the page's stack, its memory): nothing more is asked of it

self.onmessage = async (event) => {
  const { id, method, path, query, body } = event.data;
  let answer;
  try {
    answer = await engine;
  } catch (err) {
    postMessage({ id, status: 503, text: JSON.stringify({ error: `the engine did not start: ${err.message || err}` }) });
    return;
  }
  if (broken) {
    postMessage({ id, crashed: broken });
    return;
  }
  try {
    postMessage({ id, ...call(answer, method, path, query || "", body ?? null) });
  } catch (err) {
    // routes.answer never raises: this is the interpreter itself dying, which a fresh
    // worker (the page starts one) recovers from
    broken = String((err && err.message) || err);
    postMessage({ id, crashed: broken });
  }
};
