// The page's language: the one chosen here (remembered), else the browser's first of ours,
// else English. Its words come from i18n/LANG.json beside the page (the server's route, the
// static site's file), made from the same catalogues as the rulings
// (adjudicator/locale/LANG/LC_MESSAGES/page.po); the HTML is written in English and each of
// its texts is looked up by the English itself (translate="no" keeps record notation as it
// is). app.js calls tr("...") / trn("...", "...", n) for what it draws, and waits for
// pageLanguage.ready before it draws anything. A page saved by `adjudicator replay --html`
// in another language holds that one catalogue inline (#page-words), and no chooser.
"use strict";

(function () {
  const LANGUAGES = { en: "English", sv: "svenska", fi: "suomi", nb: "norsk bokmål" };
  const ALIASES = { no: "nb", nn: "nb" };
  const KEY = "adjudicator.lang";
  const ATTRIBUTES = ["placeholder", "aria-label", "title", "alt"];
  let words = {};

  function ours(tag) {
    const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
    const code = ALIASES[base] || base;
    return Object.prototype.hasOwnProperty.call(LANGUAGES, code) ? code : null;
  }

  function remembered() {
    try {
      return ours(localStorage.getItem(KEY));
    } catch {
      return null; // storage refused (a private window, a file: page)
    }
  }

  function chosen() {
    const saved = remembered();
    if (saved) return saved;
    for (const tag of navigator.languages || [navigator.language]) {
      const code = ours(tag);
      if (code) return code;
    }
    return "en";
  }

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
  }

  function tr(text, values) {
    const said = words[text];
    return fill(typeof said === "string" ? said : text, values);
  }

  function trn(one, many, n, values) {
    // sv, fi and nb count as English does: one, and everything else (n != 1)
    const said = words[one];
    const forms = Array.isArray(said) ? said : [one, many];
    return fill(n === 1 ? forms[0] : forms[1], { count: n, ...values });
  }

  function collapsed(text) {
    return text.replace(/\s+/g, " ").trim();
  }

  function translateTree(root) {
    // each text and labelling attribute of the English HTML, unless inside translate="no"
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
      if (!element || element.closest("[translate=no], script, style")) continue;
      if (node.nodeType === Node.TEXT_NODE) {
        const text = collapsed(node.nodeValue);
        if (text && typeof words[text] === "string") {
          const lead = node.nodeValue.match(/^\s*/)[0];
          const tail = node.nodeValue.match(/\s*$/)[0];
          node.nodeValue = lead + words[text] + tail;
        }
      } else {
        for (const name of ATTRIBUTES) {
          const value = node.getAttribute(name);
          if (value && typeof words[collapsed(value)] === "string") node.setAttribute(name, words[collapsed(value)]);
        }
      }
    }
  }

  function chooser(code) {
    const nav = document.querySelector("header nav") || document.querySelector("header");
    if (!nav || document.getElementById("lang")) return;
    const select = document.createElement("select");
    select.id = "lang";
    select.setAttribute("aria-label", tr("Language"));
    for (const [value, name] of Object.entries(LANGUAGES)) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = name;
      option.lang = value;
      select.append(option);
    }
    select.value = code;
    select.addEventListener("change", () => {
      try {
        localStorage.setItem(KEY, select.value);
      } catch {
        // not remembered: this page still changes
      }
      location.reload();
    });
    nav.append(select);
  }

  async function load() {
    if (document.readyState === "loading") {
      await new Promise((done) => document.addEventListener("DOMContentLoaded", done, { once: true }));
    }
    const embedded = document.getElementById("page-words");
    if (embedded) {
      // a saved page (adjudicator replay --html --lang): its one language, in the file
      words = JSON.parse(embedded.textContent);
      document.documentElement.lang = ours(embedded.lang) || "en";
      translateTree(document.documentElement);
      return document.documentElement.lang;
    }
    let code = chosen();
    if (code !== "en") {
      try {
        // beside the page, so a site under a sub-path (GitHub Pages) and its service worker
        // (offline) find it as the server's /i18n/LANG.json is found
        const answer = await fetch(new URL(`i18n/${code}.json`, location.href));
        if (!answer.ok) throw new Error(String(answer.status));
        words = await answer.json();
      } catch {
        code = "en"; // no catalogue here: English
        words = {};
      }
    }
    document.documentElement.lang = code;
    translateTree(document.documentElement);
    chooser(code);
    return code;
  }

  const state = { code: "en", ready: null, tr, trn };
  state.ready = load().then((code) => {
    state.code = code;
    return code;
  });
  globalThis.pageLanguage = state;
  globalThis.tr = tr;
  globalThis.trn = trn;
})();
