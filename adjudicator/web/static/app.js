// The table's page: draws what the API returns, never decides what is legal.
// Every ruling and every legal list comes from POST /api/replay; this file keeps the
// record being built, sends taps, and encodes/decodes the #record= link.
// Record text reaches the page only through textContent, never innerHTML.

const $ = (id) => document.getElementById(id);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "23456789TJQKA";
const PACK = [..."SHDC"].flatMap((s) => [...RANKS].map((r) => r + s));
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
  placing: {}, // position builder: card -> target
  lastTapAt: null, // performance.now() of the last tap, for the ruling's time
};

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

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function screen(name) {
  for (const id of ["new", "open", "table"]) $(`screen-${id}`).hidden = id !== name;
  // the pack grid names every card: it exists only while a position is being written
  if (name === "new") drawPack();
  else $("pack").replaceChildren();
}

// --- the API --------------------------------------------------------------------------

async function api(path, body) {
  const answer = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "accept-language": document.documentElement.lang || "en", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data;
  try {
    data = await answer.json();
  } catch {
    throw new Error(tr("the server answered {status} without JSON", { status: answer.status }));
  }
  if (!answer.ok) throw new Error(data.error || tr("the server answered {status}", { status: answer.status }));
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
  // as calls.patched: a scalar is itself, {"=": v} replaces, any other object patches
  // (a dict's changed keys; a list's changed positions and what it grew by, "+")
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
  // as calls.unpacked: the view as /api/replay answers it, its tables rebuilt step by step
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

async function decodeRecord(code) {
  const base = code.replaceAll("-", "+").replaceAll("_", "/");
  const text = atob(base + "=".repeat((4 - (base.length % 4)) % 4));
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
  const json = await pipe(bytes, new DecompressionStream("deflate-raw"));
  return JSON.parse(new TextDecoder().decode(json));
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
  if (t.deal) head.append(` · ${t.deal.what} to be dealt by ${t.deal.by.join(" or ")}`);
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

function sourcesEl(where) {
  // each citation (title and section), then each text's public address once
  const list = el("ul", { class: "sources" });
  if (!where) return list;
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
  if (v) {
    const card = el("div", { class: "violation", role: "group", "aria-label": tr("Ruling") });
    card.append(el("p", {}, el("strong", { text: tr("Illegal action {number}:", { number: v.index }) + " " }), el("span", { class: "action", text: pretty(v.action) })));
    card.append(el("p", {}, el("span", { class: "rule", text: tr("rule {rule}", { rule: v.rule }) }), ": ", el("span", { class: "message", text: v.message })));
    card.append(el("p", { class: "hint", text: tr("Where the rule is written:") }), sourcesEl(v.where));
    const alts = el("div", { class: "buttons", role: "group", "aria-label": tr("Legal instead") });
    for (const form of v.legal) alts.append(actionButton(form, () => replaceLast(form)));
    card.append(el("p", { class: "hint", text: v.legal.length ? tr("Legal instead:") : tr("Nothing else was legal with known cards.") }), alts);
    if (v.legal_hidden) card.append(el("p", { class: "hint", text: tr("and {count} more with cards hidden from {viewer}", { count: v.legal_hidden, viewer: page.viewer }) }));
    if (v.with_unseen) card.append(el("p", { class: "hint", text: tr("and {count} more with a card nobody has seen", { count: v.with_unseen }) }));
    if (v.table) card.append(el("p", { class: "hint", text: v.unplayable ? tr("{why}: play stops here.", { why: v.unplayable }) : tr("The table: {what}. Play goes on.", { what: v.table }) }));
    if (!EMBEDDED && step.violation && !step.violation.table && page.pos === r.steps.length) {
      const choices = el("div", { class: "buttons" });
      choices.append(el("button", { type: "button", text: tr("Take it back"), onclick: takeBack }));
      choices.append(el("button", { type: "button", text: tr("Let it stand"), onclick: letItStand }));
      card.append(choices);
    }
    box.append(card);
  }
  const notes = step ? step.notes : [];
  const undetermined = page.pos === r.steps.length ? check.undetermined : notes;
  for (const n of undetermined) {
    box.append(el("p", { class: "undetermined" },
      el("strong", { text: "? " + (n.index === null ? tr("undetermined") : tr("undetermined at action {number}", { number: n.index })) }),
      " · " + tr("rule {rule}", { rule: n.rule }) + `: ${n.message}`));
  }
  if (page.pos === r.steps.length && check.violations.some((x) => x.index === null)) {
    for (const x of check.violations.filter((y) => y.index === null)) {
      box.append(el("p", { class: "violation" }, el("strong", { text: `✗ ${x.rule}: ` }), x.message));
    }
  }
}

function actionButton(form, onclick) {
  const text = formText(form);
  return el("button", { type: "button", class: "act", "aria-label": text, text: pretty(text), onclick });
}

function drawMoves() {
  const r = page.result;
  const atEnd = page.pos === r.steps.length;
  const legal = $("legal");
  legal.replaceChildren();
  $("moves").hidden = Boolean(EMBEDDED);
  $("else").hidden = !atEnd || !r.next;
  if (!atEnd) {
    $("else-hand").replaceChildren();
    legal.append(el("button", { type: "button", text: tr("Play on from here"), onclick: playFromHere }));
    return;
  }
  const next = r.next;
  if (!next) {
    legal.append(el("p", { class: "hint", text: r.check.violations.length ? tr("Play stops at the violation.") : tr("No action may follow.") }));
  } else {
    const deals = next.legal.filter((f) => typeof f !== "string");
    const shown = deals.length > 4 ? next.legal.filter((f) => typeof f === "string" || deals.indexOf(f) < 3) : next.legal;
    for (const form of shown) legal.append(actionButton(form, () => play(form)));
    if (shown.length < next.legal.length) {
      legal.append(el("p", { class: "hint", text: "… " + trn("and {count} more way to deal", "and {count} more ways to deal", next.legal.length - shown.length) }));
    }
    if (!next.legal.length) legal.append(el("p", { class: "hint", text: next.finished ? tr("The game is over.") : tr("No legal action with known cards.") }));
  }
  const who = $("else-player");
  const movers = next ? next.to_move : [];
  who.replaceChildren(...r.players.map((n) => el("option", { value: n, text: n })));
  if (movers.length) who.value = movers[0];
  drawElseHand();
}

function drawElseHand() {
  const box = $("else-hand");
  box.replaceChildren();
  const t = tableAt(page.result.steps.length);
  const seat = t.seats.find((s) => s.name === $("else-player").value);
  for (const code of (seat && seat.cards) || []) {
    const b = el("button", { type: "button", class: "pick", "aria-pressed": "false", "aria-label": code }, cardEl(code));
    b.addEventListener("click", () => {
      b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
      const picked = [...box.querySelectorAll("[aria-pressed=true]")].map((x) => x.getAttribute("aria-label"));
      $("else-cards").value = picked.join(" ");
    });
    box.append(b);
  }
}

function drawSteps() {
  const r = page.result;
  const list = $("steps");
  list.replaceChildren();
  r.steps.forEach((s, i) => {
    // one player's view lists only what has happened so far: later plays would show the hands
    if (page.viewer && i >= page.pos) return;
    const item = el("li", { value: String(s.index) });
    const words = s.words;
    const b = el("button", { type: "button", class: "step", text: `${s.index}. ${pretty(words)}`, onclick: () => go(i + 1) });
    if (violationOf(s)) b.classList.add("bad");
    if (i + 1 === page.pos) b.setAttribute("aria-current", "step");
    item.append(b);
    if (s.events.length) item.append(el("span", { class: "events", text: ` → ${s.events.join("; ")}` }));
    list.append(item);
  });
  // the action's own number (as the list and the ruling give it), and where the step is
  // among those replayed: a replay that stops at an illegal action has fewer steps than
  // the record has actions
  $("where").textContent = page.pos === 0
    ? tr("At the start")
    : tr("After action {number} · step {step} of {steps}", { number: r.steps[page.pos - 1].index, step: page.pos, steps: r.steps.length });
  $("first").disabled = $("back").disabled = page.pos === 0;
  $("forward").disabled = $("last").disabled = page.pos === r.steps.length;
  $("to-violation").disabled = firstBad() < 0;
}

function draw() {
  drawTable(tableAt(page.pos));
  drawRuling();
  drawMoves();
  drawSteps();
  if (page.lastTapAt !== null) {
    document.body.dataset.rulingMs = String(Math.round((performance.now() - page.lastTapAt) * 10) / 10);
    page.lastTapAt = null;
  }
}

// --- acting on the record ---------------------------------------------------------------

async function load(record, where = "end") {
  showError("");
  try {
    page.result = await rule(record, page.viewer);
  } catch (err) {
    showError(err.message);
    return false;
  }
  page.record = record;
  const steps = page.result.steps;
  const bad = firstBad();
  page.pos = where === "violation" && bad >= 0 ? bad + 1 : where === "start" ? 0 : steps.length;
  if (typeof where === "number") page.pos = steps.findIndex((s) => s.index === where) + 1 || steps.length;
  const viewer = $("viewer");
  const views = EMBEDDED ? Object.keys(embedded().views) : ["", ...page.result.players];
  viewer.replaceChildren(...views.map((n) => el("option", { value: n, text: n || "everyone (all hands)" })));
  viewer.value = page.viewer;
  screen("table");
  draw();
  return true;
}

function withActions(actions) {
  return { ...page.record, actions };
}

async function play(form) {
  page.lastTapAt = performance.now();
  await load(withActions([...page.record.actions, form]));
}

async function replaceLast(form) {
  page.lastTapAt = performance.now();
  const kept = page.record.actions.slice(0, page.result.steps[page.pos - 1].index);
  await load(withActions([...kept, form]));
}

// What the table did about an irregular action: the record keeps it, marked (the record
// format's "table"), and the adjudicator follows the game past it.
function marked(form, mark) {
  if (typeof form === "string") return `${form.split(" -- ")[0]} -- ${mark}`;
  return { ...form, table: mark };
}

async function markLast(mark) {
  const actions = page.record.actions;
  await load(withActions([...actions.slice(0, -1), marked(actions[actions.length - 1], mark)]));
}

async function takeBack() {
  await markLast("taken back");
}

async function letItStand() {
  await markLast("stands");
}

async function playFromHere() {
  const index = page.pos === 0 ? 0 : page.result.steps[page.pos - 1].index + 1;
  await load(withActions(page.record.actions.slice(0, index)));
}

function go(pos) {
  page.pos = Math.max(0, Math.min(pos, page.result.steps.length));
  draw();
}

// --- the new-dispute form ---------------------------------------------------------------

function players() {
  return $("players").value.trim().split(/\s+/).filter(Boolean);
}

function fromWhere() {
  return document.querySelector("input[name=from]:checked").value;
}

function chosenVariant() {
  return page.variants.find((v) => v.name === $("variant").value);
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

function drawPack() {
  const pack = $("pack");
  pack.replaceChildren();
  for (const code of PACK) {
    const owner = page.placing[code];
    const label = owner ? `${code} (${owner.replace(/^\w+:/, "")})` : code;
    const b = el("button", { type: "button", class: "pick", "aria-label": code, "aria-pressed": owner ? "true" : "false", title: label }, cardEl(code));
    if (owner) b.append(el("span", { class: "owner", text: owner.startsWith("stock") ? "stock" : owner.replace(/^\w+:/, "").slice(0, 4) }));
    b.addEventListener("click", () => {
      const target = $("target").value;
      if (page.placing[code] === target) delete page.placing[code];
      else page.placing[code] = target;
      drawPack();
    });
    pack.append(b);
  }
  const counts = targets().map((t) => `${t.text}: ${placed(t.key).length + (page.unseen?.[t.key] || 0)}`);
  $("placed").textContent = counts.join(" · ");
}

function placed(key) {
  return PACK.filter((c) => page.placing[c] === key);
}

function withUnseen(key) {
  return [...placed(key), ...Array(page.unseen?.[key] || 0).fill("??")];
}

function newRecord() {
  const names = players();
  const record = { format: "skitgubbe-record/1", variant: $("variant").value, players: names };
  const options = $("options").value.trim();
  if (options) {
    try {
      record.options = JSON.parse(options);
    } catch (err) {
      throw new Error("options: " + tr("not JSON: {error}", { error: err.message }));
    }
  }
  const where = fromWhere();
  if (where === "deck") {
    record.dealer = $("dealer").value;
    record.deck = $("deck").value.trim();
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
    record.start = start;
  }
  record.actions = [];
  return record;
}

function shuffle() {
  const decks = chosenVariant()?.decks || 1;
  const cards = Array(decks).fill(PACK).flat();
  const random = new Uint32Array(cards.length);
  crypto.getRandomValues(random);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = random[i] % (i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  $("deck").value = cards.join(" ");
}

// --- opening a record ---------------------------------------------------------------------

async function openText(text) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (err) {
    showError(tr("not JSON: {error}", { error: err.message }));
    return;
  }
  await load(record, "violation");
}

async function openHash() {
  const match = /^#record=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return false;
  try {
    page.viewer = "";
    await load(await decodeRecord(match[1]), "violation");
  } catch (err) {
    showError(tr("the link holds no readable record: {error}", { error: err.message }));
  }
  return true;
}

async function copyLink() {
  const url = `${location.origin}${location.pathname}#record=${await encodeRecord(page.record)}`;
  history.replaceState(null, "", url);
  const box = $("link");
  box.value = url;
  box.hidden = false;
  try {
    await navigator.clipboard.writeText(url);
    showError("");
  } catch {
    box.select();
  }
}

function download() {
  const blob = new Blob([JSON.stringify(page.record, null, 2) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: "record.json" });
  document.body.append(a);
  a.click();
  a.remove();
}

// --- wiring ---------------------------------------------------------------------------------

async function start() {
  if (globalThis.pageLanguage) await globalThis.pageLanguage.ready; // its words before any drawing
  $("go-new").addEventListener("click", () => { showError(""); screen("new"); refreshForm(); });
  $("go-open").addEventListener("click", () => { showError(""); screen("open"); });
  for (const id of ["variant", "players"]) $(id).addEventListener("input", refreshForm);
  for (const radio of document.querySelectorAll("input[name=from]")) radio.addEventListener("change", refreshForm);
  $("target").addEventListener("change", refreshForm);
  $("unseen").addEventListener("input", () => {
    page.unseen = { ...page.unseen, [$("target").value]: Math.max(0, Number($("unseen").value) || 0) };
    drawPack();
  });
  $("shuffle").addEventListener("click", shuffle);
  $("begin").addEventListener("click", () => {
    page.viewer = "";
    let record;
    try {
      record = newRecord();
    } catch (err) {
      showError(err.message);
      return;
    }
    load(record);
  });
  $("open").addEventListener("click", () => openText($("paste").value));
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (file) openText(await file.text());
  });
  $("viewer").addEventListener("change", async () => {
    page.viewer = $("viewer").value;
    const pos = page.pos;
    if (await load(page.record)) go(pos);
  });
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(page.pos - 1));
  $("forward").addEventListener("click", () => go(page.pos + 1));
  $("last").addEventListener("click", () => go(page.result.steps.length));
  $("to-violation").addEventListener("click", () => go(firstBad() + 1));
  $("else-player").addEventListener("change", drawElseHand);
  $("else-go").addEventListener("click", () => {
    const cards = $("else-cards").value.trim().toUpperCase();
    $("else-cards").value = "";
    play([$("else-player").value, $("else-act").value, cards].filter(Boolean).join(" "));
  });
  $("copy-link").addEventListener("click", copyLink);
  $("download").addEventListener("click", download);
  window.addEventListener("hashchange", openHash);

  if (EMBEDDED) {
    const data = embedded();
    for (const id of ["go-new", "go-open", "copy-link"]) $(id).hidden = true;
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
    refreshForm();
    if (!(await openHash())) screen("new");
  }
  document.body.dataset.ready = "true";
}

start();
