// The table's page: draws what the API returns, never decides what is legal.
// Every ruling and every legal list comes from POST /api/replay; this file keeps the
// record being built, sends taps, and keeps the address's #record= the record shown
// (so a reload or a link gives back what was on screen).
// Record text reaches the page only through textContent, never innerHTML.

const $ = (id) => document.getElementById(id);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "23456789TJQKA";
const PACK = [..."SHDC"].flatMap((s) => [...RANKS].map((r) => r + s));
const ACTS = ["play", "pick", "dare", "sluff", "take", "exchange", "set_aside", "deal", "draw"]; // as the record format lists them
const RECENT = "adjudicator.recent"; // localStorage: the disputes kept on this phone
const RECENT_KEPT = 20;
const FORM = "adjudicator.form"; // localStorage: the New dispute form as typed, until "New dispute" clears it
const EMBEDDED = document.getElementById("embedded");
// tr/trn: the page's words in its language (i18n.js); English where it is not loaded
const fill = (text, values = {}) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
const tr = globalThis.tr || fill;
const trn = globalThis.trn || ((one, many, n, values = {}) => fill(n === 1 ? one : many, { count: n, ...values }));

const page = {
  variants: [],
  record: null, // the record being built or replayed
  result: null, // the API's answer for it
  pos: 0, // the step shown: 0 is the start, k the table after action k-1
  viewer: "",
  placing: {}, // position builder: "card/copy" -> target
  lastTapAt: null, // performance.now() of the last tap, for the ruling's time
  session: null, // a session being shown: {record, data, game}
  dispute: null, // this dispute's key in Recent
  rules: [], // the chosen variant's options, as /api/variants/NAME gives them
  byPlayers: [], // how the variant's options change with the number of players
  acts: [], // the acts the record's rules have (Something else offers these)
  chain: null, // the undo chain this history entry belongs to (its changes are entries behind it)
  depth: 0, // how many changes of this chain lie behind the entry shown (Undo is offered above 0)
  what: "", // the change that made the entry shown ("Undo: …" names it)
  code: null, // the whole record shown, as the link's #record= holds it
  coded: null, // the object page.code was made from
  shown: null, // the address and history state last written: a damaged link goes back to it
  loads: 0, // loads begun: an answer for a load since superseded is dropped
  busy: false, // an action is being judged: further taps wait for it (a double tap sends once)
  popped: null, // Undo waits for the entry behind to be drawn: this says it is
  restoring: false, // the New dispute form is being filled from what was kept
};
const APP = "adjudicator"; // history.state entries this page wrote

// --- small DOM helpers: text only --------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function cardEl(code) {
  if (code === "??") return el("span", { class: "card unseen", text: "??" });
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[code.length - 1];
  return el("span", { class: `card suit-${suit}`, text: rank + SUITS[suit] });
}

function cardsEl(codes) {
  const box = el("span", { class: "cards" });
  for (const code of codes) box.append(cardEl(code));
  return box;
}

function pretty(text) {
  // "Cai play QD 8C" -> "Cai play Q♦ 8♣" for the eye (the cards only, never the name);
  // the accessible name stays the record's notation
  const words = text.split(" ");
  const cards = words.slice(2).map((w) => w.replace(/^([2-9TJQKA])([SHDC])$/, (_, r, s) => (r === "T" ? "10" : r) + SUITS[s]));
  return [...words.slice(0, 2), ...cards].join(" ");
}

function formText(form) {
  return typeof form === "string" ? form : JSON.stringify(form);
}

// A path of the project's repository in a line ("(see docs/other-games.md)", the Vändtia
// line) points a terminal's user to a file a phone cannot open: the page leaves it out of
// what it shows, and the command line keeps it.
const REPOSITORY_PATH = /\s*\([^()]*\bdocs\/[\w.-]+\.md\)/g;

function pageWords(message) {
  return String(message || "").replace(REPOSITORY_PATH, "");
}

function showError(message) {
  const box = $("error");
  box.textContent = pageWords(message);
  box.hidden = !message;
}

// An error stands beside the control it concerns: the control is marked (aria-invalid),
// the message follows it as an alert, and it is scrolled into view. What was typed stays.
function fault(control, message) {
  clearFault(control);
  const note = el("p", { class: "fault", role: "alert", id: `${control.id}-fault`, text: pageWords(message) });
  const field = ["INPUT", "SELECT", "TEXTAREA"].includes(control.tagName);
  if (field) {
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("aria-describedby", note.id);
  }
  control.after(note);
  note.scrollIntoView({ block: "center" });
  if (field) control.focus({ preventScroll: true });
}

function clearFault(control) {
  control.removeAttribute("aria-invalid");
  control.removeAttribute("aria-describedby");
  $(`${control.id}-fault`)?.remove();
}

function clearFaults() {
  for (const note of document.querySelectorAll(".fault")) note.remove();
  for (const marked of document.querySelectorAll("[aria-invalid]")) clearFault(marked);
  showError("");
}

function screen(name) {
  for (const id of ["new", "open", "samples", "table"]) $(`screen-${id}`).hidden = id !== name;
  // the pack grid names every card: it exists only while a position is being written
  if (name === "new") drawPack();
  else $("pack").replaceChildren();
}

// --- the API --------------------------------------------------------------------------
// engine.js sends each call to the server that served the page, or to the engine running
// in this browser (the static site); it starts at once, while the table types names.
const ENGINE = EMBEDDED ? null : import("./engine.js");

async function api(path, body) {
  const { call } = await ENGINE;
  const { status, data } = await call(path, body === undefined ? undefined : JSON.stringify(body));
  if (status >= 400) throw new Error(data.error || tr("the engine answered {status}", { status }));
  return data;
}

// --- the embedded replay (replay --html): read once, each view unpacked when first shown

let embeddedData = null;
const unpackedViews = new Map();

function embedded() {
  if (embeddedData === null) embeddedData = JSON.parse(EMBEDDED.textContent);
  return embeddedData;
}

function patched(before, patch) {
  // the one applier of the patches service/page.py's _diff makes (the tests run it in
  // Node): a scalar is itself, {"=": v} replaces, any other object patches (a dict's
  // changed keys; a list's changed positions and what it grew by, "+")
  if (patch === null || typeof patch !== "object") return patch;
  if ("=" in patch) return patch["="];
  if (Array.isArray(before)) {
    const after = before.concat(patch["+"] || []);
    for (const [key, change] of Object.entries(patch)) if (key !== "+") after[key] = patched(before[key], change);
    return after;
  }
  const after = { ...before };
  for (const [key, change] of Object.entries(patch)) after[key] = patched(before[key], change);
  return after;
}

function unpacked(name) {
  // the view as /api/replay answers it (calls.replay), its tables rebuilt step by step
  if (!unpackedViews.has(name)) {
    const data = embedded();
    const { tables, violations_at: violations, next, ...head } = data.views[name];
    let shown = head.start;
    const steps = data.steps.map((said, k) => {
      shown = patched(shown, tables[k]);
      return { ...said, violation: violations[k] ?? null, table: shown };
    });
    unpackedViews.set(name, { ...head, steps, next });
  }
  return unpackedViews.get(name);
}

async function rule(record, viewer) {
  if (EMBEDDED) return unpacked(viewer || "");
  const query = viewer ? `?as=${encodeURIComponent(viewer)}` : "";
  return api(`/api/replay${query}`, record);
}

// --- the link: #record= base64url(raw DEFLATE(UTF-8 JSON)) ----------------------------

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

async function encodeRecord(record) {
  const bytes = await pipe(new TextEncoder().encode(JSON.stringify(record)),
    new CompressionStream("deflate-raw"));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// A shared link inflates to at most this many bytes (a long game's record is tens of KB):
// a 68 KB link made the page upload 50 MB.
const LINK_LIMIT = 2 * 1024 * 1024;

async function inflateCapped(bytes, limit) {
  // fed 1 KB at a time as the output is read (deflate inflates 1 KB to 1 MB at most): a
  // link that inflates to 1 GB is stopped at the cap, the rest never inflated
  const inflating = new DecompressionStream("deflate-raw");
  const writer = inflating.writable.getWriter();
  (async () => {
    for (let at = 0; at < bytes.length; at += 1024) {
      await writer.ready;
      writer.write(bytes.subarray(at, at + 1024)).catch(() => {});
    }
    await writer.ready;
    await writer.close();
  })().catch(() => {}); // stopped at the cap, or damaged: the reader below meets why
  const reader = inflating.readable.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Oversized(tr("the record inflates to more than {size} MB", { size: limit / 1024 / 1024 }));
    }
    chunks.push(value);
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

class Oversized extends Error {}

// A link cut short or changed in copying: the browser's own words ("invalid stored block
// lengths", "Compressed input was truncated") mean nothing at a table, so they are not shown.
function damagedLink() {
  return tr("the link is damaged: part of it is missing or changed (cut short when copied?); ask for the link again, or copy all of it");
}

async function decodeRecord(code) {
  // the record a link's #record= holds; an Error in table words when it holds none
  try {
    const base = code.replaceAll("-", "+").replaceAll("_", "/");
    const text = atob(base + "=".repeat((4 - (base.length % 4)) % 4));
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const json = await inflateCapped(bytes, LINK_LIMIT);
    const said = new TextDecoder("utf-8", { fatal: true }).decode(json);
    let record;
    try {
      record = JSON.parse(said);
    } catch {
      record = undefined;
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      throw new NotARecord(await notARecordSaid(said));
    }
    return record;
  } catch (err) {
    throw err instanceof Oversized || err instanceof NotARecord ? err : new Error(damagedLink());
  }
}

async function notARecordSaid(text) {
  // a link that arrived whole but holds no record: the engine's own words for it, as the
  // command line says them ("not a record: JSON nested too deeply to read")
  try {
    const verdict = await window.adjudicator.check(text);
    if (verdict && verdict.status === "invalid" && verdict.error) return verdict.error;
  } catch {
    // no engine to ask: the link's own words below
  }
  return damagedLink();
}

class NotARecord extends Error {}

function parseLink(text) {
  // what a link's fragment holds: #record=CODE[&game=K][&step=N][&as=NAME], or null
  const at = text.indexOf("#record=");
  if (at < 0) return null;
  const params = new URLSearchParams(text.slice(at + 1).trim());
  const number = (key) => (/^\d+$/.test(params.get(key) || "") ? Number(params.get(key)) : null);
  return { code: params.get("record") || "", game: number("game"), step: number("step"), as: params.get("as") || "" };
}

// --- drawing the table ---------------------------------------------------------------

function violationOf(step) {
  // the step's own refusal, or a rule found broken there only later (the last trick's sluff)
  if (!step) return null;
  return step.violation || page.result.check.violations.find((v) => v.index === step.index) || null;
}

function firstBad() {
  return page.result.steps.findIndex((s) => violationOf(s));
}

function tableAt(pos) {
  const r = page.result;
  return pos === 0 ? r.start : r.steps[pos - 1].table;
}

function drawTable(t) {
  const box = $("table");
  box.replaceChildren();
  const phase = t.phase === 0 ? tr("Game over") : t.phase === 1 ? tr("Phase one") : tr("Phase two");
  const head = el("p", { class: "head" }, el("strong", { text: phase }));
  if (t.phase === 1) head.append(" · " + tr("stock {count}", { count: t.stock }));
  if (t.trump) {
    head.append(" · " + tr("trump") + " ");
    head.append(el("span", { class: `suit-${t.trump}`, text: SUITS[t.trump] }));
  }
  if (t.indicator) head.append(` · ${t.indicator}`);
  if (t.phase === 2) head.append(" · " + tr("out of play {count}", { count: t.out_of_play }));
  if (t.deal) head.append(" · " + tr("{what} to be dealt by {dealers}", { what: t.deal.what, dealers: t.deal.by.join(tr(" or ")) }));
  box.append(head);
  const trick = el("div", { class: "trick", "aria-label": tr("Trick") });
  if (!t.trick.length && !t.sluffs.length) trick.append(el("span", { class: "dim", text: tr("trick empty") }));
  for (const play of t.trick) trick.append(el("span", { class: "play" }, play.player + " ", cardsEl(play.cards)));
  for (const s of t.sluffs) trick.append(el("span", { class: "play dim" }, tr("{name} sluffs", { name: s.player }) + " ", cardsEl(s.cards)));
  box.append(trick);
  const seats = el("ul", { class: "seats" });
  for (const seat of t.seats) {
    const row = el("li", { class: seat.turn ? "seat turn" : "seat" });
    row.append(el("span", { class: "name", text: (seat.turn ? "▶ " : seat.loser ? "✗ " : "") + seat.name }));
    if (seat.cards === null) row.append(el("span", { class: "dim", text: trn("{count} card", "{count} cards", seat.count) }));
    else if (seat.count === 0) row.append(el("span", { class: "dim", text: t.phase === 1 ? tr("no cards") : tr("out") }));
    else {
      row.append(cardsEl(seat.cards));
      if (seat.unseen) row.append(el("span", { class: "dim", text: " " + tr("+{count} unseen", { count: seat.unseen }) }));
    }
    if (t.phase === 1) row.append(el("span", { class: "pile dim", text: tr("pile {count}", { count: seat.pile }) }));
    seats.append(row);
  }
  box.append(seats);
  const lost = t.losers.join(tr(" and "));
  if (t.losers.length) box.append(el("p", { class: "head", text: tr("Game over: {names} lost.", { names: lost }) }));
}

function sourcesEl(where, cites) {
  // the record's own variant text first, where it states an option the rule reads and the
  // rule's sources do not cite that text already (the Goat treatise for a Goat table's
  // dreck), then each citation (title and section), then each text's public address once
  const list = el("ul", { class: "sources" });
  if (!where) return list;
  const seen = new Set();
  for (const option of where.options || []) {
    const cite = cites && cites[option];
    if (cite && !seen.has(cite) && !where.sources.some((s) => cite.startsWith(s.text))) {
      seen.add(cite);
      list.append(el("li", { class: "variant-cite", text: `${cite} (${option})` }));
    }
  }
  const addresses = new Map();
  for (const s of where.sources) {
    list.append(el("li", { text: s.cite }));
    addresses.set(s.address, `${s.text}, '${s.title}'`);
  }
  for (const [address, title] of addresses) {
    const item = el("li", { class: "dim", text: `${title}: ` });
    if (/^https:\/\//.test(address)) item.append(el("a", { href: address, rel: "noreferrer", text: address }));
    else item.append(address);
    list.append(item);
  }
  return list;
}

function formEl(form) {
  // an action as the eye reads it: a sentence in the page's language, the cards as cards
  // (the accessible name stays the record's notation); an action of another shape as written
  const text = formText(form);
  const said = actSaid(form);
  if (said === null) return el("span", { class: "form", text: pretty(text) });
  return el("span", { class: "form", "aria-label": text }, ...sentenceEl(said, actCards(form)));
}

const CARD_CODE = /^([2-9TJQKA][SHDC]|\?\?)$/;

function actCards(form) {
  return typeof form === "string" ? form.split(" ").slice(2) : [];
}

function actSaid(form) {
  // "Finn spelar {cards}": an action of the record as a sentence of the page's language, one
  // whole sentence for each act (the cards stand where CARDS_AT is); null for a form the page
  // does not say (a deal's shares, a mark, a comment, a word that is not a card)
  if (typeof form !== "string") return null;
  const words = form.split(" ");
  if (words.length < 2 || !words.slice(2).every((w) => CARD_CODE.test(w))) return null;
  const [player, act] = words;
  const has = words.length > 2;
  const values = { player, cards: CARDS_AT };
  if (act === "play" && has) return tr("{player} plays {cards}", values);
  if (act === "sluff" && has) return tr("{player} sluffs {cards}", values);
  if (act === "pick") return has ? tr("{player} picks up {cards}", values) : tr("{player} picks up", values);
  if (act === "dare") return has ? tr("{player} dares and turns {cards}", values) : tr("{player} dares", values);
  if (act === "take" && !has) return tr("{player} takes the trick", values);
  if (act === "exchange" && has) return tr("{player} exchanges {cards}", values);
  if (act === "set_aside" && has) return tr("{player} sets {cards} aside", values);
  if (act === "deal" && !has) return tr("{player} deals", values);
  if (act === "draw" && !has) return tr("{player} draws a card", values);
  return null;
}

function actText(form) {
  // the action's sentence as plain text, the cards as the page writes them (Q♦): for "Undo: …"
  const said = actSaid(form);
  return said === null ? pretty(formText(form)) : said.replace(CARDS_AT, cardsText(actCards(form)));
}

function cardsText(codes) {
  return pretty(`x x ${codes.join(" ")}`).slice(4);
}

function sentenceEl(said, codes) {
  // a sentence with its cards drawn as cards where CARDS_AT stands (their text, "Q♦", is
  // what a screen reader reads)
  const [before, after = ""] = said.split(CARDS_AT);
  const cards = codes.map((code) => CARD_CODE.test(code) ? cardEl(code) : code);
  const parts = [before];
  cards.forEach((c, i) => parts.push(...(i ? [" ", c] : [c])));
  parts.push(after);
  return parts.filter((p) => p !== "");
}

function drawRuling() {
  const box = $("ruling");
  box.replaceChildren();
  const r = page.result;
  const check = r.check;
  const step = page.pos > 0 ? r.steps[page.pos - 1] : null;
  const v = violationOf(step);
  const verdict = el("p", { class: `verdict ${check.status}` });
  verdict.append(el("strong", { text: check.status === "illegal" ? "✗ " + tr("illegal") : "✓ " + tr("legal") }));
  let said = ` · ${check.variant}, ` + trn("{applied} of {count} actions applied", "{applied} of {count} actions applied", check.actions, { applied: check.applied });
  const losers = check.losers.length ? check.losers.join(tr(" and ")) : tr("nobody");
  if (check.finished) said += " · " + tr("finished, {names} lost", { names: losers });
  verdict.append(said);
  box.append(verdict);
  drawNote(box, step);
  if (v) {
    const card = el("div", { class: "violation", role: "group", "aria-label": tr("Ruling") });
    card.append(el("p", {}, el("strong", { text: tr("Illegal: action {number} of {actions},", { number: v.index + 1, actions: check.actions }) + " " }), formEl(v.action)));
    card.append(el("p", {}, el("span", { class: "rule", text: tr("rule {rule}", { rule: v.rule }) }), ": ", el("span", { class: "message", text: v.message })));
    if (v.where) card.append(el("p", { class: "checks" }, el("strong", { text: tr("What the rule checks:") + " " }), v.where.checks));
    card.append(el("p", { class: "hint", text: tr("Where the rule is written:") }), sourcesEl(v.where, r.cites));
    // the legal actions are another player's when the violator had none there (an illegal
    // sluff: the next player is to act), said so, as the command line says it
    const next = v.to_act ? tr("Next, {player} to act:", { player: actorsSaid(v.legal, v.to_act) }) : "";
    const alts = el("ul", { class: "alternatives", "aria-label": next || tr("What could have been played") });
    for (const form of v.legal) alts.append(el("li", {}, formEl(form)));
    if (v.to_act) {
      card.append(el("h3", { text: tr("Nothing was legal for {player} there", { player: v.player }) }));
      if (v.legal.length) card.append(el("p", { class: "next-to-act", text: next }));
    } else card.append(el("h3", { text: v.legal.length ? tr("What could have been played") : tr("Nothing else was legal with known cards.") }));
    if (v.legal.length) card.append(alts);
    if (v.legal_hidden) card.append(el("p", { class: "hint", text: trn("and {count} more with cards hidden from {viewer}", "and {count} more with cards hidden from {viewer}", v.legal_hidden, { viewer: page.viewer }) }));
    if (v.with_unseen) card.append(el("p", { class: "hint", text: trn("and {count} more with a card nobody has seen", "and {count} more with a card nobody has seen", v.with_unseen) }));
    if (v.table) card.append(el("p", { class: "hint", text: v.unplayable ? tr("{why}: play stops here.", { why: v.unplayable }) : tableDid(v.table) }));
    box.append(card);
    if (!EMBEDDED && step.violation && !step.violation.table && page.pos === r.steps.length) {
      // the decisions, apart from the ruling: each keeps the disputed action in the record, marked
      const decide = el("div", { class: "decide", role: "group", "aria-labelledby": "decide-title" });
      decide.append(el("h3", { id: "decide-title", text: tr("What does the table do?") }));
      const choices = el("div", { class: "buttons" });
      choices.append(el("button", { type: "button", class: "decision", text: tr("Take it back"), onclick: acting(() => takeBack(v.index)) }));
      choices.append(el("button", { type: "button", class: "decision", text: tr("Let it stand"), onclick: acting(() => letItStand(v.index)) }));
      for (const form of v.legal) {
        choices.append(el("button", { type: "button", class: "decision", onclick: acting(() => takeBackAndPlay(v.index, form)) }, ...insteadEl(form)));
      }
      decide.append(choices);
      box.append(decide);
    }
  }
  const notes = step ? step.notes : [];
  const undetermined = page.pos === r.steps.length ? check.undetermined : notes;
  for (const n of undetermined) {
    box.append(el("p", { class: "undetermined" },
      el("strong", { text: "? " + (n.index === null ? tr("undetermined") : tr("undetermined at action {number}", { number: n.index + 1 })) }),
      ` · ${tr("rule {rule}", { rule: n.rule })}: ${n.message}`));
  }
  if (page.pos === r.steps.length && check.violations.some((x) => x.index === null)) {
    for (const x of check.violations.filter((y) => y.index === null)) {
      box.append(el("p", { class: "violation" }, el("strong", { text: `✗ ${x.rule}: ` }), x.message));
    }
  }
}

function actorsSaid(legal, toAct) {
  // who is to act, by the players the legal actions name, in the page's language ("Bo or
  // Cai"); the engine's own words where the list names nobody the page can read
  const names = [...new Set(legal.map((f) => (typeof f === "string" ? f.split(" ")[0] : f.player)).filter(Boolean))];
  if (!names.length) return toAct.join(tr(" or "));
  return names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + tr(" or ") + names[names.length - 1];
}

function tableDid(mark) {
  // what the table did about the action, as a sentence (the record keeps its English mark)
  if (mark === "taken back") return tr("The table took it back. Play goes on.");
  if (mark === "stands") return tr("The table let it stand. Play goes on.");
  return tr("The table: {what}. Play goes on.", { what: mark });
}

const CARDS_AT = "\u0001"; // where a sentence's cards go, drawn as cards

function insteadSaid(form) {
  // "Take it back; Finn plays {cards} instead": one whole sentence for each act, so that
  // every language says it in its own order (the cards stand where CARDS_AT is)
  const words = typeof form === "string" ? form.split(" ") : [form.player || "", form.act || "deal"];
  const [player, act] = words;
  const has = words.length > 2;
  const values = { player, cards: CARDS_AT };
  if (act === "play") return tr("Take it back; {player} plays {cards} instead", values);
  if (act === "sluff") return tr("Take it back; {player} sluffs {cards} instead", values);
  if (act === "pick") return has ? tr("Take it back; {player} picks up {cards} instead", values) : tr("Take it back; {player} picks up instead", values);
  if (act === "dare") return has ? tr("Take it back; {player} dares and turns {cards} instead", values) : tr("Take it back; {player} dares instead", values);
  if (act === "take") return tr("Take it back; {player} takes the trick instead", values);
  if (act === "exchange") return tr("Take it back; {player} exchanges {cards} instead", values);
  if (act === "set_aside") return tr("Take it back; {player} sets {cards} aside instead", values);
  if (act === "deal") return tr("Take it back; {player} deals instead", values);
  if (act === "draw") return tr("Take it back; {player} draws a card instead", values);
  return tr("Take it back; {action} instead", { action: formText(form) });
}

function insteadCards(form) {
  return typeof form === "string" ? form.split(" ").slice(2) : [];
}

function insteadEl(form) {
  // the sentence with its cards drawn as cards (their text, "Q♦", is the accessible name)
  return sentenceEl(insteadSaid(form), insteadCards(form));
}

function insteadText(form) {
  // the same sentence as plain text, for "Undo: …"
  return insteadSaid(form).replace(CARDS_AT, cardsText(insteadCards(form)));
}

function actionButton(form, onclick) {
  // the action said in the page's language, its cards as cards; the accessible name stays
  // the record's notation
  const text = formText(form);
  const said = actSaid(form);
  const shown = said === null ? pretty(text) : el("span", {}, ...sentenceEl(said, actCards(form))); // one line in the flex button
  return el("button", { type: "button", class: "act", "aria-label": text, onclick }, shown);
}

function later() {
  // how many recorded actions come after the position shown
  const r = page.result;
  const index = page.pos === 0 ? 0 : r.steps[page.pos - 1].index + 1;
  return page.record.actions.length - index;
}

function drawMoves() {
  const r = page.result;
  const atEnd = page.pos === r.steps.length;
  const legal = $("legal");
  legal.replaceChildren();
  $("moves").hidden = Boolean(EMBEDDED);
  if (EMBEDDED) return; // no engine at hand: nothing to play (and one player's file holds no record)
  // nothing may follow the end of the game (rule game.over): no action to enter by hand then
  $("else").hidden = !atEnd || !r.next || r.next.finished;
  if (!atEnd) {
    $("else-hand").replaceChildren();
    const n = later();
    legal.append(el("button", { type: "button", text: trn("Play on from here (sets aside {count} later action; Undo restores it)", "Play on from here (sets aside {count} later actions; Undo restores them)", n), onclick: acting(playFromHere) }));
    return;
  }
  const next = r.next;
  if (!next) {
    legal.append(el("p", { class: "hint", text: r.check.violations.length ? tr("Play stops at the violation.") : tr("No action may follow.") }));
  } else {
    const deals = next.legal.filter((f) => typeof f !== "string");
    const shown = deals.length > 4 ? next.legal.filter((f) => typeof f === "string" || deals.indexOf(f) < 3) : next.legal;
    for (const form of shown) legal.append(actionButton(form, acting(() => play(form))));
    if (shown.length < next.legal.length) {
      legal.append(el("p", { class: "hint", text: "… " + trn("and {count} more way to deal (Something else: deal)", "and {count} more ways to deal (Something else: deal)", next.legal.length - shown.length) }));
    }
    if (!next.legal.length) legal.append(el("p", { class: "hint", text: next.finished ? tr("The game is over.") : tr("No legal action with known cards.") }));
  }
  const who = $("else-player");
  const movers = next ? next.to_move : [];
  const kept = who.value;
  who.replaceChildren(...r.players.map((n) => el("option", { value: n, text: n })));
  if (movers.length) who.value = movers[0];
  else if (r.players.includes(kept)) who.value = kept;
  const act = $("else-act");
  const keptAct = act.value;
  const acts = ACTS.filter((a) => (r.acts || []).includes(a));
  act.replaceChildren(...acts.map((a) => el("option", { value: a, text: a })));
  if ((r.acts || []).includes(keptAct)) act.value = keptAct;
  drawElseHand();
}

function drawElseHand() {
  const box = $("else-hand");
  box.replaceChildren();
  const dealing = $("else-act").value === "deal";
  $("else-cards").placeholder = dealing ? tr("each receiver and cards: {example}", { example: "Anna:2H Bo:5C,3D" }) : tr("rank then suit of each card, with spaces");
  $("else-cards-label").textContent = dealing ? tr("Who gets which cards (receiver:cards, with spaces between receivers)") : tr("Cards (tap above, or type)");
  if (dealing) return;
  const t = tableAt(page.result.steps.length);
  const seat = t.seats.find((s) => s.name === $("else-player").value);
  for (const code of (seat && seat.cards) || []) {
    const b = el("button", { type: "button", class: "pick", "aria-pressed": "false", "aria-label": code }, cardEl(code));
    b.addEventListener("click", () => {
      b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
      const picked = [...box.querySelectorAll("[aria-pressed=true]")].map((x) => x.getAttribute("aria-label"));
      $("else-cards").value = picked.join(" ");
      clearFault($("else-cards"));
    });
    box.append(b);
  }
}

function narration(pos) {
  const r = page.result;
  const total = r.check.actions; // the record's actions (a one-player file holds no record)
  if (pos === 0) return trn("At the start · {count} action recorded", "At the start · {count} actions recorded", total);
  const s = r.steps[pos - 1];
  return tr("Action {number} of {total}:", { number: s.index + 1, total }) + ` ${pretty(s.words)}`;
}

function drawSteps() {
  const r = page.result;
  const list = $("steps");
  list.replaceChildren();
  r.steps.forEach((s, i) => {
    // one player's view lists only what has happened so far: later plays would show the hands
    if (page.viewer && i >= page.pos) return;
    const item = el("li", { value: String(s.index + 1) });
    const b = el("button", { type: "button", class: "step", text: `${s.index + 1}. ${pretty(s.words)}`, onclick: () => go(i + 1) });
    if (violationOf(s)) b.classList.add("bad");
    if (i + 1 === page.pos) b.setAttribute("aria-current", "step");
    item.append(b);
    if (s.events.length) item.append(el("span", { class: "events", text: ` → ${s.events.join("; ")}` }));
    if (s.comment) item.append(commentEl(s.comment));
    list.append(item);
  });
  // one count for every place: action k of n, from 1, as the list numbers them
  $("where").textContent = narration(page.pos);
  $("first").disabled = $("back").disabled = page.pos === 0;
  $("forward").disabled = $("last").disabled = page.pos === r.steps.length;
  $("to-violation").disabled = firstBad() < 0;
}

function drawUndo() {
  const can = page.depth > 0 && !EMBEDDED;
  $("undo").hidden = !can;
  $("undo").textContent = can ? tr("Undo: {what}", { what: page.what }) : tr("Undo");
}

function draw() {
  drawTable(tableAt(page.pos));
  drawRuling();
  drawMoves();
  drawSteps();
  drawUndo();
  if (page.lastTapAt !== null) {
    document.body.dataset.rulingMs = String(Math.round((performance.now() - page.lastTapAt) * 10) / 10);
    page.lastTapAt = null;
  }
}

// --- the address and Recent: what is on screen is in the address and on the phone ----

function titleOf(record) {
  const n = (record.actions || []).length;
  const games = record.games ? trn("{count} game", "{count} games", record.games.length) : trn("{count} action", "{count} actions", n);
  return `${record.variant || "?"} · ${(record.players || []).join(" ")} · ${games}`;
}

function recent() {
  try {
    const kept = JSON.parse(localStorage.getItem(RECENT) || "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

function keepRecent(list) {
  try {
    localStorage.setItem(RECENT, JSON.stringify(list.slice(0, RECENT_KEPT)));
  } catch {
    // a phone with storage switched off keeps nothing; the address still holds the record
  }
}

function newId() {
  return `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

function stepShown() {
  // the step shown as people count it: N is the table after the N-th action, 0 the start
  return page.pos === 0 ? 0 : page.result.steps[page.pos - 1].index + 1;
}

function tableHash() {
  // the whole state a person sees: the record, the game of a session, the step, the view
  let hash = `#record=${page.code}`;
  if (page.session) hash += `&game=${page.session.game + 1}`;
  hash += `&step=${stepShown()}`;
  if (page.viewer) hash += `&as=${encodeURIComponent(page.viewer)}`;
  return hash;
}

function entryState() {
  // what rides in the history entry: the Recent line, and where the entry stands in its undo chain
  return { app: APP, dispute: page.dispute, chain: page.chain, depth: page.depth, what: page.what };
}

function writeAddress(url, mode) {
  const state = mode === "keep" ? history.state : entryState();
  if (mode === "push") history.pushState(state, "", url);
  else history.replaceState(state, "", url);
  page.shown = { url, state };
}

async function remember(mode = "replace") {
  // the address is the table shown (a change pushes an entry: Back undoes it, Forward redoes
  // it); the dispute goes to the top of Recent
  if (EMBEDDED) return;
  const whole = page.session ? page.session.record : page.record;
  if (page.coded !== whole) {
    page.code = await encodeRecord(whole);
    page.coded = whole;
  }
  if (!page.dispute) page.dispute = newId();
  if (!page.chain) page.chain = newId();
  writeAddress(location.pathname + location.search + tableHash(), mode);
  if ($("link").hidden === false) $("link").value = location.href;
  $("qr").replaceChildren();
  $("shared").textContent = "";
  const entry = { id: page.dispute, hash: location.hash, title: titleOf(whole), at: new Date().toISOString() };
  keepRecent([entry, ...recent().filter((e) => e.id !== page.dispute)]);
}

function rememberStep() {
  // stepping and the view change the address, not the history: Back is for changes
  if (EMBEDDED || !page.code || $("screen-table").hidden) return;
  writeAddress(location.pathname + location.search + tableHash(), "keep");
}

function drawRecent() {
  const list = $("recent");
  const kept = recent();
  $("recent-box").hidden = !kept.length;
  list.replaceChildren(...kept.map((entry) => {
    const when = entry.at ? new Date(entry.at).toLocaleString() : "";
    const open = el("button", { type: "button", class: "open-recent", onclick: () => openRecent(entry) },
      el("span", { text: entry.title }), el("span", { class: "dim", text: when }));
    const drop = el("button", { type: "button", class: "drop", "aria-label": tr("Delete {title}", { title: entry.title }), text: "✕",
      onclick: () => { keepRecent(recent().filter((e) => e.id !== entry.id)); drawRecent(); } });
    return el("li", {}, open, drop);
  }));
}

async function openRecent(entry) {
  await openLink(entry.hash, null, entry.id);
}

// --- acting on the record ---------------------------------------------------------------

async function load(record, where = "end", anchor = null, entry = null) {
  // the ruling for ``record``; an error stands beside ``anchor`` (the control tapped, or a
  // function that places it and gives the control, or null when it has said it itself).
  // ``entry``: the history entry it makes ({push, chain, depth, what}); null keeps the one shown.
  const token = ++page.loads;
  let result;
  try {
    result = await rule(record, page.viewer);
  } catch (err) {
    if (token !== page.loads) return false;
    clearFaults();
    if (typeof anchor === "function") {
      const control = anchor(err.message);
      if (control) fault(control, err.message);
    } else if (anchor) fault(anchor, err.message);
    else showError(err.message);
    return false;
  }
  if (token !== page.loads) return false; // a later load (a Back, a link) has taken over
  clearFaults();
  page.result = result;
  if (entry) ({ chain: page.chain, depth: page.depth, what: page.what } = entry);
  page.record = record;
  page.acts = page.result.acts || [];
  const steps = page.result.steps;
  const bad = firstBad();
  page.pos = where === "violation" && bad >= 0 ? bad + 1 : where === "start" ? 0 : steps.length;
  if (typeof where === "number") page.pos = steps.findIndex((s) => s.index === where) + 1 || steps.length;
  const viewer = $("viewer");
  const views = EMBEDDED ? Object.keys(embedded().views) : ["", ...page.result.players];
  viewer.replaceChildren(...views.map((n) => el("option", { value: n, text: n || tr("everyone (all hands)") })));
  viewer.value = page.viewer;
  await remember(entry && entry.push ? "push" : "replace"); // the address first: whatever is drawn is already in it
  screen("table");
  draw();
  return true;
}

function fresh(push = true) {
  // the history entry of a record opened afresh: a chain of its own, nothing to undo
  return { push, chain: newId(), depth: 0, what: "" };
}

function withActions(actions) {
  return { ...page.record, actions };
}

async function change(record, what, anchor = null, where = "end") {
  // every change is a history entry of its own, one deeper in the chain: the entry before it
  // (its address, the record and step shown then) is what Undo and Back go back to
  const session = page.session;
  if (page.session) page.session = null; // a changed game is a dispute of its own
  if (!page.chain) page.chain = newId();
  if (await load(record, where, anchor, { push: true, chain: page.chain, depth: page.depth + 1, what })) {
    drawUndo();
    return true;
  }
  page.session = session;
  return false;
}

function undo() {
  // the entry behind this one is the same chain one change earlier: Back is Undo. The
  // button stays disabled until that entry is drawn, so a double tap undoes once.
  if (page.depth <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(late);
      page.popped = null;
      resolve();
    };
    const late = setTimeout(done, 10000);
    page.popped = done;
    history.back();
  });
}

async function play(form, anchor = null) {
  page.lastTapAt = performance.now();
  $("undo-about").textContent = "";
  const done = await change(withActions([...page.record.actions, form]), actText(form), anchor || $("legal"));
  if (done) showRuling();
  return done;
}

// A play just entered was ruled illegal: the ruling's first lines (the rule and why) come
// into view under the sticky replay bar; the finger was below, at the legal actions.
function showRuling() {
  const card = $("ruling").querySelector(".violation");
  if (!card) return;
  const under = $("replay-bar").getBoundingClientRect().height + 8;
  const top = card.getBoundingClientRect().top;
  if (top < under || top > innerHeight / 2) window.scrollBy({ top: top - under, behavior: "instant" });
}

// What the table did about an irregular action: the record keeps it, marked (the record
// format's "table"), and the adjudicator follows the game past it.
function marked(form, mark) {
  if (typeof form === "string") {
    const [action, comment] = splitComment(form);
    return withComment(`${action.split(" -- ")[0]} -- ${mark}`, comment);
  }
  return { ...form, table: mark };
}

// The disputed action is the ruling's (its index), not the record's last: a record may go on
// after it (the game went on at the table), and those later actions stay, replayed after it.
function markedAt(index, mark, ...instead) {
  const actions = page.record.actions;
  return [...actions.slice(0, index), marked(actions[index], mark), ...instead, ...actions.slice(index + 1)];
}

// --- comments: a note a person writes beside an action (the record format's "comment") ---
// In the string form it ends the action, in braces as PGN writes them ("\\}" is a brace
// inside it, "\\\\" a backslash); the object form has "comment". The adjudicator keeps and
// shows it, and never reads it.

function splitComment(text) {
  // the action's text without its comment, and the comment (null: none)
  const start = text.indexOf(" {");
  if (start < 0) return [text, null];
  let out = "";
  for (let i = start + 2; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && (text[i + 1] === "\\" || text[i + 1] === "}")) out += text[++i];
    else if (ch === "}") return [text.slice(0, start), out];
    else out += ch;
  }
  return [text, null]; // not closed: left for the engine to name
}

function withComment(text, comment) {
  if (comment === null || comment === undefined || comment === "") return text;
  return `${text} {${comment.replaceAll("\\", "\\\\").replaceAll("}", "\\}")}}`;
}

function commentOf(form) {
  return typeof form === "string" ? splitComment(form)[1] : (form.comment ?? null);
}

function noted(form, comment) {
  // the action with ``comment`` beside it instead of any it had ("": none)
  if (typeof form === "string") return withComment(splitComment(form)[0], comment);
  const { comment: _old, ...rest } = form;
  return comment ? { ...rest, comment } : rest;
}

function commentEl(text) {
  // the record's words as text, never as markup; line breaks kept by the style
  return el("p", { class: "comment" }, el("span", { class: "comment-label", text: tr("Note:") + " " }), text);
}

function drawNote(box, step) {
  // the step's comment under it, and "Add a note": type one onto the action shown
  if (!step) return;
  if (step.comment) box.append(commentEl(step.comment));
  // no record at hand to write the note into, or one player's view (it shows no note)
  if (EMBEDDED || page.session || page.viewer) return;
  const index = step.index;
  const form = page.record.actions[index];
  if (form === undefined) return;
  const open = el("button", { type: "button", id: "note-open", class: "note-open",
    text: step.comment ? tr("Change the note") : tr("Add a note"), "aria-expanded": "false" });
  const editor = el("div", { class: "note-editor", hidden: "" });
  const label = el("label", { for: "note-text", text: tr("Note on action {number}", { number: index + 1 }) });
  const area = el("textarea", { id: "note-text", rows: "2", maxlength: "1000" });
  area.value = commentOf(form) || "";
  const save = el("button", { type: "button", class: "primary", text: tr("Save the note") });
  const cancel = el("button", { type: "button", text: tr("Cancel") });
  open.addEventListener("click", () => {
    editor.hidden = false;
    open.setAttribute("aria-expanded", "true");
    area.focus();
  });
  cancel.addEventListener("click", () => {
    editor.hidden = true;
    open.setAttribute("aria-expanded", "false");
  });
  save.addEventListener("click", async () => {
    const text = area.value.replaceAll("\r\n", "\n");
    const actions = page.record.actions.map((f, k) => (k === index ? noted(f, text) : f));
    const pos = page.pos;
    if (await change(withActions(actions), tr("Note on action {number}", { number: index + 1 }), area)) go(pos);
  });
  editor.append(label, area, el("div", { class: "buttons" }, save, cancel));
  box.append(el("div", { class: "note" }, open, editor));
}

async function takeBack(index) {
  await change(withActions(markedAt(index, "taken back")), tr("Take it back"), $("ruling"));
}

async function letItStand(index) {
  await change(withActions(markedAt(index, "stands")), tr("Let it stand"), $("ruling"));
}

async function takeBackAndPlay(index, form) {
  page.lastTapAt = performance.now();
  await change(withActions(markedAt(index, "taken back", form)), insteadText(form), $("ruling"));
}

async function playFromHere() {
  const n = later();
  const index = page.record.actions.length - n;
  if (await change(withActions(page.record.actions.slice(0, index)), trn("Play on from here ({count} later set aside)", "Play on from here ({count} later set aside)", n), $("legal"))) {
    $("undo-about").textContent = trn("{count} later action set aside; Undo restores it.", "{count} later actions set aside; Undo restores them.", n);
  }
}

function go(pos) {
  // stepping never scrolls the page: the table and the step controls stay where they are
  page.pos = Math.max(0, Math.min(pos, page.result.steps.length));
  draw();
  rememberStep();
}

// An action is sent once however fast the taps come: while one is judged its button is
// disabled, and any other tap that would change the record is dropped.
function acting(action) {
  return async (event) => {
    const button = event && event.currentTarget instanceof HTMLButtonElement ? event.currentTarget : null;
    if (page.busy) return;
    page.busy = true;
    document.body.setAttribute("aria-busy", "true"); // a second tap meanwhile is dropped
    if (button) button.disabled = true;
    try {
      await action(event);
    } finally {
      page.busy = false;
      document.body.removeAttribute("aria-busy");
      if (button && button.isConnected) button.disabled = false;
    }
  };
}

// --- Something else: an action typed or tapped by hand -----------------------------------

const CARD_TEXT = /^(10|[2-9TJQKA])([SHDC♠♥♦♣♤♡♢♧])$/i; // every spelling the record reads

function distance(a, b) {
  const row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = kept;
    }
  }
  return row[b.length];
}

function nearestCards(word, among) {
  // the cards one typing slip from ``word`` (the hand's first), as the eye reads them
  const typed = word.toUpperCase().replace(/^10/, "T");
  const fromHand = among.length ? nearestCards(word, []).filter((c) => among.some((h) => pretty(`x x ${h}`).slice(4) === c)) : [];
  if (fromHand.length) return fromHand;
  const scored = PACK.map((c) => [distance(typed, c), distance(typed, [...c].reverse().join("")) + 0.5, c])
    .map(([a, b, c]) => [Math.min(a, b), c]).sort((x, y) => x[0] - y[0]);
  const best = scored.length ? scored[0][0] : 9;
  return scored.filter(([d]) => d === best && d <= 1).slice(0, 4).map(([, c]) => pretty(`x x ${c}`).slice(4));
}

function cardFault(word, hand) {
  const near = nearestCards(word, hand);
  const either = near.join(tr(" or "));
  const guess = near.length ? "; " + tr("did you mean {cards}?", { cards: either }) : "";
  return tr("'{word}' is not a card: a card is its rank (2-10, J, Q, K, A) then its suit (S, H, D, C), as KD or 10H", { word }) + guess;
}

function typedAction() {
  // the action in record notation, or an Error naming what to fix (the typed text stays)
  const player = $("else-player").value;
  const act = $("else-act").value;
  const text = $("else-cards").value.trim();
  if (act === "deal") {
    if (!text) throw new Error(tr("type who gets which cards, as {example}", { example: "Anna:2H Bo:5C,3D" }));
    const parts = text.split(/\s+/).map((part) => {
      const [who, cards = ""] = part.split(":");
      for (const c of cards.split(",").filter(Boolean)) if (!CARD_TEXT.test(c)) throw new Error(cardFault(c, []));
      return `${who}:${cards.toUpperCase()}`;
    });
    return `${player} deal ${parts.join(" ")}`;
  }
  const words = text.split(/\s+/).filter(Boolean);
  const seat = tableAt(page.result.steps.length).seats.find((s) => s.name === player);
  for (const w of words) if (!CARD_TEXT.test(w)) throw new Error(cardFault(w, (seat && seat.cards) || []));
  if (["play", "sluff", "exchange", "set_aside"].includes(act) && !words.length) {
    throw new Error((act === "play" ? tr("tap or type the cards {player} plays", { player }) : tr("tap or type the cards {player} uses to {act}", { player, act: act.replace("_", " ") })));
  }
  return [player, act, ...words.map((w) => w.toUpperCase())].join(" ");
}

async function enterTyped() {
  const box = $("else-cards");
  let form;
  try {
    form = typedAction();
  } catch (err) {
    fault(box, err.message);
    return;
  }
  if (await play(form, box)) box.value = "";
}

// --- the new-dispute form ---------------------------------------------------------------

function players() {
  // names are parted by spaces or commas ("Anna, Bo, Cai" is Anna, Bo and Cai)
  return $("players").value.split(/[\s,]+/).filter(Boolean);
}

function fromWhere() {
  return document.querySelector("input[name=from]:checked").value;
}

function chosenVariant() {
  return page.variants.find((v) => v.name === $("variant").value);
}

function decks() {
  const typed = page.rules.find((o) => o.name === "decks");
  const control = typed && $(`rule-${typed.name}`);
  return Number(control ? control.value : chosenVariant()?.decks || 1) || 1;
}

function targets() {
  const names = players();
  const out = names.map((n) => ({ key: `hand:${n}`, text: tr("{name}'s hand", { name: n }) }));
  if (fromWhere() === "1") {
    out.push({ key: "stock", text: tr("the stock (top first)") });
    for (const n of names) out.push({ key: `pile:${n}`, text: tr("{name}'s pile", { name: n }) });
  }
  return out;
}

function refreshForm() {
  const v = chosenVariant();
  $("variant-about").textContent = v ? `${v.title} · ` + tr("{low}-{high} players", { low: v.min_players, high: v.max_players }) + ` · ${v.source}` : "";
  const names = players();
  for (const id of ["dealer", "leader", "pos-dealer"]) {
    const select = $(id);
    const kept = select.value;
    select.replaceChildren(...(id === "pos-dealer" ? [el("option", { value: "", text: tr("not known") })] : []),
      ...names.map((n) => el("option", { value: n, text: n })));
    if ([...select.options].some((o) => o.value === kept)) select.value = kept;
  }
  const where = fromWhere();
  $("from-deck").hidden = where !== "deck";
  $("from-position").hidden = where === "deck";
  $("trump-box").hidden = where !== "2";
  $("phase-one-box").hidden = where !== "1";
  $("trump-card-box").hidden = !v || v.trump_card === "stock_last";
  const target = $("target");
  const keptTarget = target.value;
  target.replaceChildren(...targets().map((t) => el("option", { value: t.key, text: t.text })));
  if ([...target.options].some((o) => o.value === keptTarget)) target.value = keptTarget;
  $("unseen").value = String(page.unseen?.[target.value] || 0);
  drawPack();
}

// --- house rules: each option of the variant as a switch or a choice -------------------

function choicesOf(allowed) {
  return allowed.split(" | ").map((x) => x.trim());
}

async function loadRules() {
  const name = $("variant").value;
  const box = $("rule-switches");
  if (!name) return;
  let about;
  try {
    about = await api(`/api/variants/${encodeURIComponent(name)}`);
  } catch (err) {
    fault($("variant"), err.message);
    return;
  }
  if ($("variant").value !== name) return; // another variant was chosen meanwhile
  page.rules = about.options.filter((o) => !["min_players", "max_players"].includes(o.name));
  page.byPlayers = about.by_players;
  box.replaceChildren();
  for (const o of page.rules) {
    const id = `rule-${o.name}`;
    const row = el("div", { class: "rule-option" });
    let control;
    if (o.allowed === "bool") {
      control = el("input", { type: "checkbox", role: "switch", id, "aria-describedby": `${id}-about` });
      control.checked = Boolean(o.value);
      row.append(el("label", { class: "choice switch", for: id }, control, ` ${o.name}`));
    } else if (o.allowed === "int") {
      control = el("input", { type: "number", id, inputmode: "numeric", "aria-describedby": `${id}-about` });
      control.value = String(o.value);
      row.append(el("label", { for: id, text: o.name }), control);
    } else {
      control = el("select", { id, "aria-describedby": `${id}-about` },
        ...choicesOf(o.allowed).map((c) => el("option", { value: c, text: c })));
      control.value = String(o.value);
      row.append(el("label", { for: id, text: o.name }), control);
    }
    control.addEventListener("change", () => {
      control.dataset.touched = "true"; // the table's own choice: the player count no longer sets it
      if (o.name === "decks") drawPack();
    });
    // one line under the control; the rest (each choice, every source) one tap away
    const cut = o.description.indexOf(". ");
    const line = cut < 0 ? o.description : o.description.slice(0, cut + 1);
    const rest = (cut < 0 ? "" : o.description.slice(cut + 2)) + (o.cited ? ` (${o.cited})` : "");
    row.append(el("p", { class: "hint", id: `${id}-about`, text: line }));
    if (rest.trim()) row.append(el("details", { class: "more" }, el("summary", { text: tr("More: each choice, and its source") }), el("p", { class: "hint", text: rest.trim() })));
    box.append(row);
  }
  showRuleDefaults();
}

function showRuleDefaults() {
  // the variant's value of each option for this many players (the Goat: two packs from
  // seven), on every control the table has not changed itself
  const n = players().length;
  const values = Object.fromEntries(page.rules.map((o) => [o.name, o.value]));
  for (const { players: [low, high], changes } of page.byPlayers || []) {
    if (n >= low && n <= high) Object.assign(values, changes);
  }
  for (const o of page.rules) {
    const control = $(`rule-${o.name}`);
    if (!control || control.dataset.touched) continue;
    if (control.type === "checkbox") control.checked = Boolean(values[o.name]);
    else control.value = String(values[o.name]);
    control.dataset.shown = control.type === "checkbox" ? String(control.checked) : control.value;
  }
  drawPack();
}

function ruleChanges() {
  // the options the table changed from the variant's, typed as the schema says
  const out = {};
  for (const o of page.rules) {
    const control = $(`rule-${o.name}`);
    if (!control) continue;
    const now = control.type === "checkbox" ? String(control.checked) : control.value;
    if (now === control.dataset.shown) continue;
    if (control.type === "checkbox") out[o.name] = control.checked;
    else if (control.type === "number" || typeof o.value === "number") out[o.name] = Number(now);
    else out[o.name] = now;
  }
  return out;
}

// --- the pack grid: as many of each card as the packs hold ----------------------------

function packCards() {
  const n = decks();
  return PACK.flatMap((code) => Array.from({ length: n }, (_, copy) => ({ code, key: `${code}/${copy}`, copy })));
}

function drawPack() {
  const pack = $("pack");
  pack.replaceChildren();
  const n = decks();
  for (const { code, key, copy } of packCards()) {
    const owner = page.placing[key];
    const name = n > 1 ? `${code} (` + tr("pack {number}", { number: copy + 1 }) + ")" : code;
    const label = owner ? `${name} (${owner.replace(/^\w+:/, "")})` : name;
    const b = el("button", { type: "button", class: "pick", "aria-label": name, "aria-pressed": owner ? "true" : "false", title: label }, cardEl(code));
    if (owner) b.append(el("span", { class: "owner", text: owner.startsWith("stock") ? tr("stock") : owner.replace(/^\w+:/, "").slice(0, 4) }));
    b.addEventListener("click", () => {
      const target = $("target").value;
      if (page.placing[key] === target) delete page.placing[key];
      else page.placing[key] = target;
      clearFault(pack);
      drawPack();
      keepForm();
    });
    pack.append(b);
  }
  const counts = targets().map((t) => `${t.text}: ${placed(t.key).length + (page.unseen?.[t.key] || 0)}`);
  $("placed").textContent = counts.join(" · ");
}

function placed(key) {
  return packCards().filter((c) => page.placing[c.key] === key).map((c) => c.code);
}

function withUnseen(key) {
  return [...placed(key), ...Array(page.unseen?.[key] || 0).fill("??")];
}

class FormFault extends Error {
  constructor(control, message) {
    super(message);
    this.control = control;
  }
}

function newRecord() {
  const names = players();
  const v = chosenVariant();
  if (v && (names.length < v.min_players || names.length > v.max_players)) {
    const said = names.length ? "; " + trn("{count} is typed", "{count} are typed", names.length) : "";
    throw new FormFault($("players"), tr("type the players' names, {low} to {high} for {variant}, with spaces between", { low: v.min_players, high: v.max_players, variant: v.name }) + said);
  }
  if (new Set(names).size !== names.length) throw new FormFault($("players"), tr("two players have the same name: give each a name of their own"));
  const record = { format: "skitgubbe-record/1", variant: $("variant").value, players: names };
  const options = ruleChanges();
  const typed = $("options").value.trim();
  if (typed) {
    let parsed;
    try {
      parsed = JSON.parse(typed);
    } catch {
      $("house-rules").open = $("advanced").open = true;
      throw new FormFault($("options"), tr("the house rules box takes JSON, as {example} (true and false without quotes, names in double quotes); or use the switches above", { example: '{"compulsory_ties": true}' }));
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      $("house-rules").open = $("advanced").open = true;
      throw new FormFault($("options"), tr("the house rules box takes one object in braces, as {example}", { example: '{"compulsory_ties": true}' }));
    }
    Object.assign(options, parsed);
  }
  if (Object.keys(options).length) record.options = options;
  const where = fromWhere();
  if (where === "deck") {
    record.dealer = $("dealer").value;
    record.deck = $("deck").value.trim();
    if (!record.deck) throw new FormFault($("deck"), tr("tap Deal at random, or type the deck: each card's rank and suit with spaces, first card dealt first"));
    // a card that is no card is said as under Something else, with the nearest cards
    record.deck.split(/\s+/).forEach((word, i) => {
      if (word !== "??" && !CARD_TEXT.test(word)) throw new FormFault($("deck"), `deck[${i}]: ${cardFault(word, [])}`);
    });
  } else {
    const hands = Object.fromEntries(names.map((n) => [n, withUnseen(`hand:${n}`)]));
    const start = { phase: Number(where), leader: $("leader").value, hands };
    if (where === "2") start.trump = $("trump").value;
    else {
      if ($("pos-dealer").value) start.dealer = $("pos-dealer").value;
      start.stock = withUnseen("stock");
      const piles = Object.fromEntries(names.map((n) => [n, withUnseen(`pile:${n}`)]).filter(([, p]) => p.length));
      if (Object.keys(piles).length) start.piles = piles;
      if (!$("trump-card-box").hidden && $("trump-card").value.trim()) start.trump_card = $("trump-card").value.trim();
    }
    const placedAny = Object.values(hands).some((h) => h.length) || (start.stock || []).length || Object.keys(start.piles || {}).length;
    if (!placedAny) {
      throw new FormFault($("pack"), tr("no card is placed yet: choose a hand under 'Tap cards into', then tap that player's cards in the pack (or give the cards nobody saw)"));
    }
    record.start = start;
  }
  record.actions = [];
  return record;
}

function controlFor(message) {
  // where a server's error about a new record belongs on the form
  if (/^(options|rule|house)/.test(message)) {
    $("house-rules").open = $("advanced").open = true;
    return $("options");
  }
  if (/^players/.test(message)) return $("players");
  if (/^deck/.test(message)) return $("deck");
  if (/^dealer/.test(message)) return $("dealer");
  if (/^start\.(hands|stock|piles)/.test(message)) return $("pack");
  if (/^start\.leader/.test(message)) return $("leader");
  if (/^start\.trump_card/.test(message)) return $("trump-card");
  return $("begin");
}

async function begin() {
  clearFaults();
  let record;
  try {
    record = newRecord();
  } catch (err) {
    fault(err.control || $("begin"), err.message);
    return;
  }
  await openFresh(record, controlFor, { where: "end" });
}

function startDispute() {
  page.dispute = null;
  page.session = null;
  page.viewer = "";
  $("session").hidden = true;
  said($("imported"), "");
  $("undo-about").textContent = "";
  $("link").hidden = true;
}

async function openFresh(record, anchor, { game = 0, where = "violation", viewer = "", dispute = null, push = true } = {}) {
  // a record opened afresh (Start, a sample, a paste, a link, Recent): a dispute and an undo
  // chain of its own, in a new history entry; refused, the screen stays as it was
  const before = { dispute: page.dispute, session: page.session, viewer: page.viewer, sessionHidden: $("session").hidden };
  startDispute();
  page.dispute = dispute;
  page.viewer = viewer;
  if (await openRecord(record, anchor, game, where, fresh(push))) {
    $("paste").value = ""; // opened: the box is empty for the next paste
    return true;
  }
  page.dispute = before.dispute;
  page.session = before.session;
  page.viewer = before.viewer;
  $("session").hidden = before.sessionHidden;
  return false;
}

function shuffle() {
  const cards = Array(decks()).fill(PACK).flat();
  const random = new Uint32Array(cards.length);
  crypto.getRandomValues(random);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = random[i] % (i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  $("deck").value = cards.join(" ");
  clearFault($("deck"));
  keepForm();
}

// --- the New dispute form, kept as it is typed: a reload (a pull-to-refresh while tapping
// cards) gives it back; "New dispute" clears it -----------------------------------------

const FORM_FIELDS = ["players", "dealer", "deck", "leader", "trump", "pos-dealer", "trump-card", "target", "options"];

function keepForm() {
  if (EMBEDDED || page.restoring) return;
  const kept = { variant: $("variant").value, from: fromWhere(), placing: page.placing, unseen: page.unseen || {}, rules: {} };
  for (const id of FORM_FIELDS) kept[id] = $(id).value;
  for (const o of page.rules) {
    const control = $(`rule-${o.name}`);
    if (control && control.dataset.touched) kept.rules[o.name] = control.type === "checkbox" ? control.checked : control.value;
  }
  try {
    localStorage.setItem(FORM, JSON.stringify(kept));
  } catch {
    // storage switched off: the form lives as long as the page
  }
}

function keptForm() {
  try {
    const kept = JSON.parse(localStorage.getItem(FORM) || "null");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : null;
  } catch {
    return null;
  }
}

async function restoreForm() {
  // the form as it was typed: the variant first (its house rules), the names (the lists of
  // players), then the rest
  const kept = keptForm();
  page.restoring = true;
  try {
    if (kept && page.variants.some((v) => v.name === kept.variant)) $("variant").value = kept.variant;
    if (kept) {
      $("players").value = String(kept.players ?? "");
      const from = document.querySelector(`input[name=from][value="${CSS.escape(String(kept.from))}"]`);
      if (from) from.checked = true;
      const object = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
      page.placing = object(kept.placing);
      page.unseen = object(kept.unseen);
    }
    refreshForm();
    await loadRules();
    if (!kept) return;
    for (const [name, value] of Object.entries(kept.rules || {})) {
      const control = $(`rule-${name}`);
      if (!control) continue;
      if (control.type === "checkbox") control.checked = Boolean(value);
      else control.value = String(value);
      control.dataset.touched = "true";
    }
    for (const id of FORM_FIELDS) {
      if (typeof kept[id] !== "string") continue;
      const control = $(id);
      if (control.tagName === "SELECT" && ![...control.options].some((o) => o.value === kept[id])) continue;
      control.value = kept[id];
    }
    refreshForm();
  } finally {
    page.restoring = false;
  }
}

function clearForm() {
  // "New dispute": an empty form (the variant stays: a table goes on with its game)
  try {
    localStorage.removeItem(FORM);
  } catch {
    // nothing was kept
  }
  for (const id of ["players", "deck", "trump-card", "options"]) $(id).value = "";
  document.querySelector("input[name=from][value=deck]").checked = true;
  page.placing = {};
  page.unseen = {};
  for (const control of document.querySelectorAll("#rule-switches [data-touched]")) delete control.dataset.touched;
  clearFaults();
  refreshForm();
  showRuleDefaults();
}

// --- opening a record, a session, a sample ---------------------------------------------------

async function openRecord(record, anchor, game = 0, where = "violation", entry = null) {
  // a record is replayed; a session shows its games and replays the one picked
  if (record && typeof record === "object" && Array.isArray(record.games)) {
    let data;
    try {
      data = await api("/api/session", record);
    } catch (err) {
      if (typeof anchor === "function") {
        const control = anchor(err.message);
        if (control) fault(control, err.message);
      } else if (anchor) fault(anchor, err.message);
      else showError(err.message);
      return false;
    }
    const k = Math.max(0, Math.min(game, data.games.length - 1));
    const kept = page.session;
    page.session = { record, data, game: k };
    if (await load(data.games[k], where, anchor, entry)) {
      drawSession();
      return true;
    }
    page.session = kept;
    return false;
  }
  page.session = null;
  if (await load(record, where, anchor, entry)) {
    $("session").hidden = true;
    return true;
  }
  return false;
}

function drawSession() {
  const s = page.session;
  $("session").hidden = !s;
  if (!s) return;
  const check = s.data.check;
  const scores = check.scores ? Object.entries(check.scores).map(([n, p]) => `${n} ${p}`).join(", ") : tr("not scored");
  $("session-about").textContent = trn("Session of {count} game", "Session of {count} games", s.data.games.length) + ` · ${check.variant} · ${tr(check.status)} · ` + tr("score: {scores}", { scores });
  const list = $("session-games");
  list.replaceChildren(...check.games.map((g, k) => {
    const losers = g.losers.length ? g.losers.join(tr(" and ")) : tr("nobody");
    const result = g.status === "illegal" ? "✗ " + tr("illegal") : g.finished ? tr("{losers} lost", { losers }) : tr(g.status);
    const b = el("button", { type: "button", class: "step", text: tr("Game {number}:", { number: k + 1 }) + ` ${result}`, onclick: () => pickGame(k) });
    if (k === s.game) b.setAttribute("aria-current", "step");
    if (g.status === "illegal") b.classList.add("bad");
    return el("li", {}, b);
  }));
  $("game").replaceChildren(...s.data.games.map((_, k) => el("option", { value: String(k), text: tr("Game {number}", { number: k + 1 }) })));
  $("game").value = String(s.game);
}

async function pickGame(k) {
  // another game of the session: an entry of its own (Back returns to the game before)
  const s = page.session;
  if (!s) return;
  const kept = s.game;
  s.game = k;
  if (await load(s.data.games[k], "violation", $("game"), fresh())) drawSession();
  else {
    s.game = kept;
    $("game").value = String(kept);
  }
}

// --- open anything: a link, a record, a session ---------------------------------------------

async function openText(text, { name = "", box = $("paste"), told = false } = {}) {
  // what was pasted into "Open record" (or a picked file's text): a link to a record
  // (…#record=…), an app's log (the engine tells it, ``told`` when it has already), a
  // record or a session
  showLog(null);
  const typed = text.trim();
  if (!typed) {
    fault(box, tr("the box is empty: paste a link to a record, a record or a session (JSON), or pick a file"));
    return;
  }
  if (parseLink(typed)) {
    await openLink(typed, box);
    return;
  }
  if (!told && (await openLog({ text: typed, name }, box))) return;
  if (!/^[[{]/.test(typed)) {
    fault(box, tr("this is neither a link to a record (it holds '#record='), a record (JSON, in braces), nor an app's log or database (a Goat app log, the albined app's SQLite file)"));
    return;
  }
  let record;
  try {
    record = JSON.parse(typed);
  } catch (err) {
    const at = /position (\d+)/.exec(err.message);
    fault(box, at
      ? tr("the text is not whole JSON: it goes wrong near character {at} (cut short when copied?)", { at: Number(at[1]) + 1 })
      : tr("the text is not whole JSON: it breaks off or has a mistake (cut short when copied?)"));
    return;
  }
  await openFresh(record, box);
}

async function openBox() {
  // the Open button: what was pasted; with the box empty, the file(s) picked beside it (the
  // obvious next tap after a pick opens, or lists again, what was picked)
  const files = [...$("file").files];
  if (!$("paste").value.trim() && files.length) return openFiles(files);
  return openText($("paste").value);
}

// --- an app's log: the Goat app's events, the albined app's database -------------------------

async function openLog(given, box) {
  // what Open record was given, as the engine tells it (the importers' detection, the one the
  // command line uses): false when it is no app's log (a record: read as one); else its game
  // opened (several: listed to pick one), or the importer's line said beside ``box``
  showLog(null);
  let data;
  try {
    data = await api("/api/import", { ...given, rules: $("log-rules").value });
  } catch (err) {
    fault(box, err.message);
    return true;
  }
  if (!data.format) return false;
  const games = data.games;
  if (games.length === 1) await openImported(games[0], box);
  else showLog(games, box, data.format);
  return true;
}

function gameLabel(game) {
  // a game of a list as the list names it: its id (or line), and its app's name for it
  return game.title ? `${game.name} (${game.title})` : game.name;
}

async function openImported(game, anchor, listed = false) {
  // one game of a log, converted: opened as any record, with a line saying what was read
  // (and, picked from a list, which game it is)
  const about = listed ? `${gameLabel(game)}: ${game.about}` : game.about;
  if (await openFresh(game.record, anchor)) said($("imported"), about);
}

function said(line, text) {
  line.textContent = text || "";
  line.hidden = !text;
}

function logAbout(games, format) {
  // what the list holds: a log's games, or the records of JSON Lines (``check
  // --write-illegal``'s file); when none of them opens, that each line says why
  const n = games.length;
  const none = !games.some((g) => !g.error);
  if (format === "records") {
    return none
      ? trn("This file holds {count} record and it cannot be opened: its line says why.", "This file holds {count} records and none can be opened: each line says why.", n)
      : trn("This file holds {count} record: pick one to open.", "This file holds {count} records: pick one to open.", n);
  }
  return none
    ? trn("This log holds {count} game and it cannot be opened: its line says why.", "This log holds {count} games and none can be opened: each line says why.", n)
    : trn("This log holds {count} game: pick one to open.", "This log holds {count} games: pick one to open.", n);
}

function showLog(games, anchor, format = "") {
  // a log of several games (or a file of several records): each one a button (one that
  // could not be converted, its line)
  const box = $("log-games");
  box.hidden = !games;
  if (!games) return $("log-list").replaceChildren();
  $("log-about").textContent = logAbout(games, format);
  $("log-list").replaceChildren(...games.map((g) => {
    if (g.error) return el("li", {}, el("p", { class: "log-bad", text: `${g.name}: ✗ ${pageWords(g.error)}` }));
    const b = el("button", { type: "button", class: "step", text: `${gameLabel(g)}: ${g.about}` });
    b.addEventListener("click", acting(() => openImported(g, anchor, true)));
    return el("li", {}, b);
  }));
  box.scrollIntoView({ block: "start" }); // the list from its top: the games, not the fold
}

function base64(bytes) {
  // a picked file's bytes for the engine (JSON carries text only), a piece at a time
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

async function openFiles(files) {
  // what was picked: one file, or a database with its write-ahead log (``app.db-wal``),
  // whose committed moves are read with it as SQLite reads the file beside a database
  const logs = files.filter((f) => /-wal$/i.test(f.name));
  const others = files.filter((f) => !logs.includes(f));
  if (files.length === 1) return openFile(files[0]);
  if (logs.length === 1 && others.length === 1) return openFile(others[0], logs[0]);
  fault($("file"), tr("pick one file, or a database with its -wal file beside it (two files)"));
}

async function openFile(file, wal = null) {
  // a picked file: its bytes to the engine first (an app's log, its SQLite database too),
  // then, when it is none, its text as a record
  const box = $("file");
  clearFault(box);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const given = { data: base64(bytes), name: file.name };
  if (wal) Object.assign(given, { wal: base64(new Uint8Array(await wal.arrayBuffer())), wal_name: wal.name });
  if (await openLog(given, box)) return;
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fault(box, tr("this file is neither a record nor an app's log the adjudicator reads (a Goat app log, the albined app's database)"));
    return;
  }
  await openText(text, { name: file.name, box, told: true });
}

async function openLink(text, anchor, dispute = null, push = true) {
  // a link's record at its game, step and view; a damaged link is said (beside ``anchor``,
  // or at the top) and nothing else changes
  const link = parseLink(text);
  let record;
  try {
    record = await decodeRecord(link.code);
  } catch (err) {
    if (anchor) fault(anchor, err.message);
    else showError(err.message);
    return false;
  }
  const players = record.players || [];
  const viewer = link.as && players.includes(link.as) ? link.as : "";
  const where = link.step === null ? "violation" : link.step === 0 ? "start" : link.step - 1;
  return openFresh(record, anchor, { game: link.game ? link.game - 1 : 0, where, viewer, dispute, push });
}

function sentence(message) {
  // a message followed by another sentence ends with a full stop ("… copy all of it.")
  return /[.!?…]$/.test(message.trim()) ? message : `${message.trimEnd()}.`;
}

function shownAgain(message, damaged = false) {
  // a link that opened nothing: the address goes back to what is on screen, and says why.
  // On a page just loaded nothing was on screen: a damaged link leaves the address (New
  // dispute), a record the engine refused stays in it (a reload may yet open it).
  if (page.shown) {
    history.replaceState(page.shown.state, "", page.shown.url);
    showError(`${sentence(message)} ` + tr("Nothing was opened: the screen is as it was."));
  } else {
    if (damaged) history.replaceState(null, "", location.pathname + location.search);
    showError(message);
  }
  return null;
}

function showScreen(name) {
  screen(name);
  if (name === "samples") drawSamples();
  if (name === "new") drawRecent();
}

function goScreen(name) {
  // a screen of its own address (#open, #samples; New dispute has none): Back returns here
  clearFaults();
  const url = location.pathname + location.search + (name === "new" ? "" : `#${name}`);
  const state = { app: APP, screen: name };
  if (location.hash === (name === "new" ? "" : `#${name}`)) history.replaceState(state, "", url);
  else history.pushState(state, "", url);
  page.shown = { url, state };
  showScreen(name);
}

async function showAddress(state) {
  // what the address holds, drawn; then whoever waits for it (Undo) goes on
  try {
    await drawAddress(state);
  } finally {
    if (page.popped) page.popped();
  }
}

async function drawAddress(state) {
  // what the address holds, drawn: a screen (#open, #samples; nothing is New dispute) or a
  // table; a history entry of this page's (a reload, Back, Forward) keeps its undo chain
  const hash = location.hash;
  if (!parseLink(hash)) {
    const name = { "#open": "open", "#samples": "samples" }[hash] || "new";
    clearFaults();
    showScreen(name);
    page.shown = { url: location.pathname + location.search + hash, state: history.state };
    return;
  }
  const ours = state && state.app === APP ? state : null;
  const left = { chain: page.chain, depth: page.depth, what: page.what };
  const link = parseLink(hash);
  let record;
  try {
    record = await decodeRecord(link.code);
  } catch (err) {
    shownAgain(err.message, true);
    if (!page.record) showScreen("new");
    return;
  }
  const players = record.players || [];
  const viewer = link.as && players.includes(link.as) ? link.as : "";
  const where = link.step === null ? "violation" : link.step === 0 ? "start" : link.step - 1;
  const kept = { dispute: page.dispute, session: page.session, viewer: page.viewer };
  startDispute();
  page.dispute = ours ? ours.dispute : null;
  page.viewer = viewer;
  const entry = ours ? { push: false, chain: ours.chain, depth: ours.depth, what: ours.what } : fresh(false);
  if (await openRecord(record, shownAgain, link.game ? link.game - 1 : 0, where, entry)) {
    if (ours && ours.chain === left.chain && ours.depth === left.depth - 1) $("undo-about").textContent = tr("Undone: {what}", { what: left.what });
    else if (ours && ours.chain === left.chain && ours.depth === left.depth + 1) $("undo-about").textContent = tr("Redone: {what}", { what: ours.what });
    return;
  }
  Object.assign(page, kept);
  if (!page.record) showScreen("new");
}

async function drawSamples() {
  const list = $("samples");
  if (list.children.length) return;
  let all;
  try {
    all = await api("/api/samples");
  } catch (err) {
    fault($("samples"), err.message);
    return;
  }
  list.replaceChildren(...all.map((s) => {
    const b = el("button", { type: "button", class: "open-recent", "aria-label": s.name, onclick: acting(() => openSample(s.name, b)) },
      el("span", { class: "sample-name", text: s.name }),
      el("span", { class: "dim", text: [s.session ? tr("session") : null, s.variant, trn("{count} player", "{count} players", s.players.length), s.title || null].filter((x) => x !== null).join(" · ") }));
    return el("li", {}, b);
  }));
}

async function openSample(name, anchor) {
  let record;
  try {
    record = await api(`/api/samples/${encodeURIComponent(name)}`);
  } catch (err) {
    fault(anchor, err.message);
    return;
  }
  await openFresh(record, anchor);
}

// --- sharing at the table -------------------------------------------------------------------

function fileName() {
  const r = page.session ? page.session.record : page.record;
  const day = new Date().toISOString().slice(0, 10);
  const names = (r.players || []).join("-");
  // letters of every script stay (Åsa, Björn); only what a file name cannot hold is replaced
  return `${r.variant || "record"}-${names}-${day}`.normalize("NFC").replace(/[^\p{L}\p{M}\p{N}._-]+/gu, "_") + ".json";
}

async function drawQr(url) {
  // the QR code is made by the engine (segno, behind /api/qr: the server, or the phone's own
  // Python on the static site); the page draws its modules, four light ones of quiet zone around
  const box = $("qr");
  box.replaceChildren();
  let code;
  try {
    code = await api("/api/qr", { link: url });
  } catch (err) {
    box.append(el("p", { class: "hint", text: err.message })); // too long for a QR code, or no engine
    inView(box);
    return;
  }
  const n = code.size;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const side = n + 8; // four modules of quiet zone each side
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", tr("QR code of the link to this record: scan it with another phone"));
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(NS, "rect");
  back.setAttribute("width", String(side));
  back.setAttribute("height", String(side));
  back.setAttribute("fill", "#ffffff");
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (code.rows[r][c] === "1") d += `M${c + 4} ${r + 4}h1v1h-1z`;
  const dots = document.createElementNS(NS, "path");
  dots.setAttribute("d", d);
  dots.setAttribute("fill", "#000000");
  svg.append(back, dots);
  box.append(svg);
  inView(box);
}

function inView(node) {
  // what a tap just made comes on screen whole where it fits (the QR code below Copy link
  // was drawn under the screen's edge), never under the replay bar stuck at the top
  const bar = $("replay-bar");
  const under = bar.offsetParent === null ? 0 : bar.getBoundingClientRect().height + 8;
  const { top, bottom } = node.getBoundingClientRect();
  if (bottom > innerHeight) window.scrollBy({ top: Math.min(bottom - innerHeight + 8, top - under), behavior: "instant" });
  else if (top < under) window.scrollBy({ top: top - under, behavior: "instant" });
}

async function copyLink() {
  await remember();
  const url = location.href;
  const box = $("link");
  box.value = url;
  box.hidden = false;
  try {
    await navigator.clipboard.writeText(url);
    $("shared").textContent = tr("Copied: the link is on the clipboard.");
  } catch {
    box.select();
    $("shared").textContent = tr("Selected: copy the link from the box.");
  }
  await drawQr(url);
}

async function share() {
  await remember();
  const url = location.href;
  try {
    await navigator.share({ title: tr("Skitgubbe ruling") + ` · ${titleOf(page.record)}`, url });
    $("shared").textContent = tr("Shared.");
  } catch (err) {
    if (err.name !== "AbortError") $("shared").textContent = tr("Not shared: {error}", { error: err.message });
  }
  await drawQr(url);
}

function download() {
  const whole = page.session ? page.session.record : page.record;
  const blob = new Blob([JSON.stringify(whole, null, 2) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: fileName() });
  document.body.append(a);
  a.click();
  a.remove();
}

// --- wiring ---------------------------------------------------------------------------------

async function start() {
  if (globalThis.pageLanguage) await globalThis.pageLanguage.ready; // its words before any drawing
  $("go-new").addEventListener("click", () => {
    startDispute();
    clearForm();
    goScreen("new");
  });
  $("go-open").addEventListener("click", () => goScreen("open"));
  $("go-samples").addEventListener("click", () => goScreen("samples"));
  $("variant").addEventListener("input", () => { refreshForm(); loadRules(); });
  $("players").addEventListener("input", () => { clearFault($("players")); refreshForm(); showRuleDefaults(); });
  $("options").addEventListener("input", () => clearFault($("options")));
  $("deck").addEventListener("input", () => clearFault($("deck")));
  for (const radio of document.querySelectorAll("input[name=from]")) radio.addEventListener("change", refreshForm);
  $("target").addEventListener("change", refreshForm);
  $("unseen").addEventListener("input", () => {
    page.unseen = { ...page.unseen, [$("target").value]: Math.max(0, Number($("unseen").value) || 0) };
    drawPack();
  });
  $("screen-new").addEventListener("input", keepForm);
  $("screen-new").addEventListener("change", keepForm);
  $("shuffle").addEventListener("click", shuffle);
  $("begin").addEventListener("click", acting(begin));
  $("open").addEventListener("click", acting(openBox));
  $("file").addEventListener("change", acting(async () => {
    const files = [...$("file").files];
    if (files.length) await openFiles(files);
  }));
  $("viewer").addEventListener("change", async () => {
    page.viewer = $("viewer").value;
    const pos = page.pos;
    if (await load(page.record, "end", $("viewer"))) go(pos);
  });
  $("game").addEventListener("change", () => pickGame(Number($("game").value)));
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(page.pos - 1));
  $("forward").addEventListener("click", () => go(page.pos + 1));
  $("last").addEventListener("click", () => go(page.result.steps.length));
  $("to-violation").addEventListener("click", () => go(firstBad() + 1));
  $("else-player").addEventListener("change", drawElseHand);
  $("else-act").addEventListener("change", drawElseHand);
  $("else-cards").addEventListener("input", () => clearFault($("else-cards")));
  $("else-go").addEventListener("click", acting(enterTyped));
  $("undo").addEventListener("click", acting(undo));
  $("copy-link").addEventListener("click", copyLink);
  $("share").addEventListener("click", share);
  $("share").hidden = typeof navigator.share !== "function";
  $("download").addEventListener("click", download);
  // Back and Forward (and a link typed into the address bar) show what the address holds
  window.addEventListener("popstate", (event) => showAddress(event.state));

  if (EMBEDDED) {
    const data = embedded();
    for (const id of ["go-new", "go-open", "go-samples", "copy-link", "share"]) $(id).hidden = true;
    $("download").hidden = !data.record; // one player's view carries no record
    page.viewer = data.viewer;
    await load(data.record, data.at === null ? "violation" : data.at);
  } else {
    try {
      page.variants = await api("/api/variants");
    } catch (err) {
      showError(err.message);
    }
    $("variant").replaceChildren(...page.variants.map((v) => el("option", { value: v.name, text: `${v.name} — ${v.title}` })));
    await restoreForm();
    await showAddress(history.state);
  }
  document.body.dataset.ready = "true";
}

start();
