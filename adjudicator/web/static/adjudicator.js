// window.adjudicator from the page's first script, before any import: an embedding script
// meets it at once, never undefined, and awaits adjudicator.ready for the engine.  The
// engine itself comes with engine.js (a module: app.js imports it, or an app's own page
// loads it), which hands its calls in here as it starts.
//   await adjudicator.ready                 the engine has started
//   await adjudicator.check(recordText)     the object `adjudicator check --json` prints
//   await adjudicator.legal(recordText, at) the object `adjudicator legal --json` prints
"use strict";

(function () {
  if (globalThis.adjudicator) return;
  let attach;
  const attached = new Promise((resolve) => {
    attach = resolve;
  });
  const ready = attached.then((engine) => engine.ready);
  ready.catch(() => {}); // the failure is shown on the page; whoever awaits it sees why
  const chosen = () => document.querySelector('meta[name="adjudicator-engine"]');
  const api = {
    ready,
    check: (recordText) => attached.then((engine) => engine.check(recordText)),
    legal: (recordText, at) => attached.then((engine) => engine.legal(recordText, at)),
    [Symbol.for("adjudicator.attach")]: (engine) => attach(engine), // engine.js's, once
  };
  Object.defineProperty(api, "engine", {
    enumerable: true,
    get: () => (chosen() && chosen().content === "worker" ? "worker" : "server"),
  });
  globalThis.adjudicator = Object.freeze(api);
})();
