// The page of `pogdsl serve` (and of `pogdsl view`, body[data-mode="view"]).
// Plain JavaScript, no library: it asks the server's JSON API for the game as
// one seat sees it and draws what it gets.  Everything it knows of the game
// comes from /api/game: the board as SVG, the decision's options, the log.
"use strict";

const $ = (id) => document.getElementById(id);
const MODE = document.body.dataset.mode === "view" ? "view" : "play";
const TOKEN = new URLSearchParams(location.search).get("token");

const page = {
  seat: new URLSearchParams(location.search).get("seat") || "",
  boardId: "",
  logTotal: 0,
  data: null,
  filter: null,   // {kind, name}: the options listed are those naming it
  viewBox: null,  // [x, y, w, h] of the board as zoomed
  full: null,     // the board's own viewBox
  busy: false,
};

// ------------------------------------------------------------ the API
async function api(path, body) {
  const headers = {};
  if (TOKEN) headers["X-Pogdsl-Token"] = TOKEN;
  const options = { headers };
  if (body !== undefined) {
    options.method = "POST";
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `the server answered ${response.status}` }; }
  if (!response.ok) {
    const err = new Error(data && data.error ? data.error : `the server answered ${response.status}`);
    err.status = response.status;
    err.rules = (data && data.rules) || [];
    throw err;
  }
  return data;
}

function gamePath() {
  const q = new URLSearchParams();
  if (page.seat) q.set("seat", page.seat);
  if (page.boardId) q.set("board", page.boardId);
  if (page.data) q.set("log_from", String(page.logTotal));
  return "api/game?" + q.toString();
}

async function refresh() {
  try {
    show(await api(gamePath()));
  } catch (err) {
    say(err.message, "error");
  }
}

async function act(path, body) {
  if (page.busy) return;
  page.busy = true;
  document.body.classList.add("busy");
  if (page.data && path !== "api/new") {  // only what the page lacks: the log's new lines, a changed board
    body.log_from = page.logTotal;
    body.board = page.boardId;
  }
  try {
    const data = await api(path, body);
    say("");
    if (path === "api/new") { page.data = null; $("log").textContent = ""; }
    show(data);
  } catch (err) {
    const rules = err.rules && err.rules.length && !/rule /.test(err.message) ? ` (rule ${err.rules.join(", ")})` : "";
    say(err.message + rules, "error");
    if (err.status === 409) await refresh();
  } finally {
    page.busy = false;
    document.body.classList.remove("busy");
  }
}

function say(text, kind) {
  const box = $("message");
  box.textContent = text || "";
  box.dataset.kind = kind || "error";
  box.hidden = !text;
}

// ------------------------------------------------------------ drawing
function show(data) {
  const seatChanged = page.data && page.data.seat !== data.seat;
  page.data = data;
  page.seat = data.seat;
  document.title = `pogdsl: ${data.scenario.title}`;
  $("title").textContent = data.scenario.title;
  drawBoard(data.board);
  drawStatus(data);
  drawSeats(data);
  drawLog(data, seatChanged);
  drawHand(data);
  drawDecision(data);
  if (MODE === "view") drawStep(data);
  $("undo").disabled = !(data.undo && data.undo.possible);
  $("undo").title = data.undo && data.undo.reason ? data.undo.reason : "take back your last decision";
  const result = $("result");
  result.hidden = !data.over;
  result.textContent = data.over ? `Game over: ${data.result.text}${data.result.reason ? " (" + data.result.reason + ")" : ""}` : "";
  if (data.error) say(data.error, "error");
  maybeHandOver(data);
}

function drawBoard(board) {
  const holder = $("board");
  if (board.parts) return patchBoard(board);
  if (board.svg === null || board.svg === undefined) return;  // the page has this drawing already
  holder.innerHTML = board.svg.replace(/^<\?xml[^>]*>\s*/, "");
  holder.dataset.boardId = board.id;
  page.boardId = board.id;
  const svg = holder.querySelector("svg");
  const vb = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  if (!page.full || page.full.join() !== vb.join()) {
    page.full = vb;
    page.viewBox = vb.slice();
  }
  applyViewBox();
}

// Only what changed since the drawing the page has: each part (a space's
// group, the panel) replaces its old self, and the map, the zoom and the
// rest stay.  A page that lacks the drawing the parts start from asks for
// the whole board.
function patchBoard(board) {
  const holder = $("board");
  const olds = holder.dataset.boardId === board.from ? Object.keys(board.parts).map((key) => holder.querySelector(
    key === "panel" ? "svg > g.panel" : `svg > g.spaces > g.space[data-space="${CSS.escape(key.slice(6))}"]`)) : [null];
  if (olds.includes(null)) {
    page.boardId = "";
    refresh();
    return;
  }
  Object.values(board.parts).forEach((xml, i) => { olds[i].outerHTML = xml; });
  holder.dataset.boardId = board.id;
  page.boardId = board.id;
}

function drawStatus(data) {
  const st = data.status;
  const box = $("status");
  box.textContent = "";
  const parts = [["turn", "Turn", String(st.turn)], ["phase", "Phase", st.phase || "set-up"]];
  for (const t of st.tracks) if (t.track !== "turn") parts.push([t.track, t.label, t.values.join(", ")]);
  for (const [name, label, value] of parts) {
    const span = document.createElement("span");
    span.className = "track";
    span.dataset.track = name;
    const b = document.createElement("b");
    b.textContent = label + ": ";
    span.append(b, value);
    box.append(span);
  }
}

function drawSeats(data) {
  const select = $("seat");
  const wanted = MODE === "view" ? data.players.length + 1 : data.players.filter((p) => p.human).length;
  if (select.options.length !== wanted) {
    select.textContent = "";
    if (MODE === "view") {
      const o = document.createElement("option");
      o.value = "";
      o.textContent = "(no side)";
      select.append(o);
    }
    for (const p of data.players) {
      if (MODE === "play" && !p.human) continue;  // the server shows no computer's seat
      const o = document.createElement("option");
      o.value = p.side;
      o.textContent = `${p.side} (${p.player})`;
      select.append(o);
    }
  }
  select.value = data.seat;
}

function ruleTitle(r) {
  return `${r.number}${r.title ? " " + r.title : ""}${r.note ? " \u2014 " + r.note : ""}`;
}

function ruleSpans(parent, rules) {
  for (const r of rules) {
    const span = document.createElement("span");
    span.className = "rule";
    span.dataset.rule = r.number;
    span.title = ruleTitle(r);
    span.textContent = r.number;
    parent.append(" ", span);
  }
}

function drawLog(data, restart) {
  const log = $("log");
  if (restart) log.textContent = "";
  // Lines at or past log_start replace what the page had from there (an undo shortens the log).
  for (const li of Array.from(log.children)) if (Number(li.dataset.n) >= data.log_start) li.remove();
  const computers = new Set(data.players.filter((p) => !p.human).map((p) => p.side));
  for (const e of data.log) {
    const li = document.createElement("li");
    li.value = e.n + 1;
    li.dataset.n = e.n;
    const by = /^(\S+) chose: /.exec(e.text);
    if (by && computers.has(by[1])) li.classList.add("computer");
    if (MODE === "view" && e.n >= data.step_log_start) li.classList.add("step-new");
    li.append(document.createTextNode(e.text));
    ruleSpans(li, e.rules);
    log.append(li);
  }
  if (MODE === "view") {
    for (const li of log.children) li.classList.toggle("step-new", Number(li.dataset.n) >= data.step_log_start);
  }
  page.logTotal = data.log_total;
  if (data.log.length) log.scrollTop = log.scrollHeight;
}

function drawHand(data) {
  $("hand-side").textContent = `(${data.seat})`;
  const hand = $("hand");
  hand.textContent = "";
  for (const c of data.hand) {
    const li = document.createElement("li");
    li.className = "card";
    li.dataset.card = c.card;
    li.textContent = `${c.card} ${c.name} (ops ${c.ops}, sr ${c.sr})${c.combat ? " combat" : ""}${c.removed ? " *" : ""}`;
    if (c.note) li.title = c.note;
    hand.append(li);
  }
  const others = data.players.filter((p) => p.side !== data.seat).map((p) => `${p.side}: ${p.hand} card${p.hand === 1 ? "" : "s"}`);
  $("hands-other").textContent = others.length ? "Other hands: " + others.join("; ") : "";
}

function drawDecision(data) {
  const d = data.decision;
  const box = $("decision");
  const list = $("options");
  list.textContent = "";
  page.filter = null;
  $("filter").hidden = true;
  box.dataset.decisionId = d ? d.id : "";
  box.dataset.side = d ? d.side : "";
  clearTargets();
  if (!d) {
    $("prompt").textContent = data.over ? "The game is over" : "No decision pending";
    $("prompt-text").textContent = "";
    return;
  }
  const h = $("prompt");
  h.textContent = MODE === "view" ? `${d.side} chose: ${d.choice}`
    : d.yours ? `${d.side} to choose: ${d.choice}` : `Waiting for ${d.side}: ${d.choice}`;
  ruleSpans(h, d.rules);
  $("prompt-text").textContent = d.prompt || "";
  if (!d.options) return;
  for (const o of d.options) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option" + (o.legal ? "" : " forbidden");
    b.dataset.option = o.index;
    b.dataset.legal = o.legal ? "yes" : "no";
    if (o.spaces.length) b.dataset.spaces = o.spaces.join("|");
    if (o.units.length) b.dataset.units = o.units.join("|");
    b.textContent = o.label;
    if (!o.legal) {
      b.setAttribute("aria-disabled", "true");
      b.title = o.reason;
    }
    if (MODE === "view") {
      b.disabled = true;
      if (o.chosen) { b.classList.add("chosen"); b.dataset.chosen = "yes"; hoverOption(o, true); }
    } else b.addEventListener("click", () => choose(o));
    b.addEventListener("mouseenter", () => hoverOption(o, true));
    b.addEventListener("mouseleave", () => hoverOption(o, false));
    li.append(b);
    list.append(li);
  }
  if (MODE === "play") markTargets(d.options);
}

async function choose(option) {
  const d = page.data && page.data.decision;
  if (!d) return;
  await act("api/decide", { decision: d.id, option: option.index, seat: page.seat });
  if (!option.legal) explain(option);
}

// A forbidden option clicked: under the refusal, why — down to the condition
// that decided, with the values this seat may see (GET /api/why).
async function explain(option) {
  const box = $("message");
  const refusal = box.hidden ? "" : box.textContent;
  try {
    const q = new URLSearchParams({ option: String(option.index), seat: page.seat });
    const why = await api("api/why?" + q.toString());
    say((refusal ? refusal + "\n\n" : "") + why.text, "error");
    box.dataset.why = why.verdict;
  } catch (err) { /* the refusal stands alone */ }
}

// ------------------------------------------------------------ the board's targets
function boardEls(kind, name) {
  const attr = kind === "unit" ? "data-unit" : kind === "box" ? "data-box" : "data-space";
  const cls = kind === "unit" ? "unit" : kind === "box" ? "box" : "space";
  return $("board").querySelectorAll(`g.${cls}[${attr}="${CSS.escape(name)}"]`);
}

function clearTargets() {
  for (const el of $("board").querySelectorAll(".target, .hover, .forbidden-target")) {
    el.classList.remove("target", "hover", "forbidden-target");
  }
}

function markTargets(options) {
  for (const o of options) {
    for (const s of o.spaces) for (const el of boardEls("space", s)) el.classList.add(o.legal ? "target" : "forbidden-target");
    for (const u of o.units) for (const el of boardEls("unit", u)) if (o.legal) el.classList.add("target");
    for (const b of o.boxes) for (const el of boardEls("box", b)) if (o.legal) el.classList.add("target");
  }
}

function hoverOption(o, on) {
  for (const s of o.spaces) for (const el of boardEls("space", s)) el.classList.toggle("hover", on);
  for (const u of o.units) for (const el of boardEls("unit", u)) el.classList.toggle("hover", on);
  for (const b of o.boxes || []) for (const el of boardEls("box", b)) el.classList.toggle("hover", on);
}

function optionsNaming(kind, name) {
  const d = page.data && page.data.decision;
  if (!d || !d.options) return [];
  const field = kind === "unit" ? "units" : kind === "box" ? "boxes" : "spaces";
  return d.options.filter((o) => o[field].includes(name));
}

// A click on the map: the one legal option naming what was clicked is taken;
// several are listed (the list filtered to them).
function boardClick(target) {
  const unit = target.closest("g.unit[data-unit]");
  const space = target.closest("g.space[data-space]");
  const box = target.closest("g.box[data-box]");
  const candidates = [];
  if (unit) candidates.push(["unit", unit.dataset.unit]);
  if (space) candidates.push(["space", space.dataset.space]);
  if (box) candidates.push(["box", box.dataset.box]);
  for (const [kind, name] of candidates) {
    const named = optionsNaming(kind, name);
    if (!named.length) continue;
    const legal = named.filter((o) => o.legal);
    if (legal.length === 1) return choose(legal[0]);
    return filterOptions(kind, name, named);
  }
}

function filterOptions(kind, name, named) {
  const keep = new Set(named.map((o) => String(o.index)));
  for (const b of $("options").querySelectorAll("button[data-option]")) {
    b.parentElement.classList.toggle("filtered-out", !keep.has(b.dataset.option));
  }
  page.filter = { kind, name };
  $("filter-text").textContent = `Options naming ${name}:`;
  $("filter").hidden = false;
}

function clearFilter() {
  for (const li of $("options").querySelectorAll("li.filtered-out")) li.classList.remove("filtered-out");
  page.filter = null;
  $("filter").hidden = true;
}

// ------------------------------------------------------------ pan and zoom
function applyViewBox() {
  const svg = $("board").querySelector("svg");
  if (svg && page.viewBox) svg.setAttribute("viewBox", page.viewBox.map((v) => v.toFixed(1)).join(" "));
}

function svgPoint(clientX, clientY) {
  const svg = $("board").querySelector("svg");
  const r = svg.getBoundingClientRect();
  const [x, y, w, h] = page.viewBox;
  const scale = Math.max(w / r.width, h / r.height);  // "meet": the larger ratio applies
  const ox = (r.width * scale - w) / 2, oy = (r.height * scale - h) / 2;
  return [x - ox + (clientX - r.left) * scale, y - oy + (clientY - r.top) * scale, scale];
}

function zoom(factor, clientX, clientY) {
  if (!page.viewBox) return;
  const r = $("board").getBoundingClientRect();
  const cx = clientX === undefined ? r.left + r.width / 2 : clientX;
  const cy = clientY === undefined ? r.top + r.height / 2 : clientY;
  const [px, py] = svgPoint(cx, cy);
  let [x, y, w, h] = page.viewBox;
  const nw = Math.min(Math.max(w * factor, page.full[2] / 40), page.full[2] * 2);
  const f = nw / w;
  page.viewBox = [px - (px - x) * f, py - (py - y) * f, w * f, h * f];
  applyViewBox();
}

function setUpPanZoom() {
  const holder = $("board");
  let drag = null;
  holder.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
  }, { passive: false });
  holder.addEventListener("pointerdown", (e) => {
    if (!page.viewBox || e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, vb: page.viewBox.slice(), moved: false, target: e.target };
  });
  holder.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    if (!drag.moved) { drag.moved = true; holder.setPointerCapture(e.pointerId); holder.classList.add("dragging"); }
    const scale = svgPoint(0, 0)[2];
    page.viewBox = [drag.vb[0] - dx * scale, drag.vb[1] - dy * scale, drag.vb[2], drag.vb[3]];
    applyViewBox();
  });
  const end = (e) => {
    if (!drag) return;
    const wasClick = !drag.moved;
    const target = drag.target;
    drag = null;
    holder.classList.remove("dragging");
    if (wasClick && e.type === "pointerup" && MODE === "play") boardClick(target);
  };
  holder.addEventListener("pointerup", end);
  holder.addEventListener("pointercancel", end);
  $("zoom-in").addEventListener("click", () => zoom(1 / 1.4));
  $("zoom-out").addEventListener("click", () => zoom(1.4));
  $("zoom-reset").addEventListener("click", () => { if (page.full) { page.viewBox = page.full.slice(); applyViewBox(); } });
}

// ------------------------------------------------------------ hot-seat
// When the decision passes to another person, the page first hides what it
// shows (this seat's hand and options) behind a hand-over screen; only then
// does it ask for the next seat's view.
function maybeHandOver(data) {
  const d = data.decision;
  const humans = data.players.filter((p) => p.human).map((p) => p.side);
  if (MODE !== "play" || !d || d.side === data.seat || !humans.includes(d.side) || humans.length < 2) {
    $("handover").hidden = true;
    return;
  }
  handOver(d.side);
}

function handOver(side) {
  $("handover-text").textContent = `Hand the screen to ${side}: it is ${side}'s decision.`;
  $("handover").dataset.seat = side;
  $("handover").hidden = false;
  $("hand").textContent = "";
  $("options").textContent = "";
  // The board's panel lists this seat's hand too: the next person is shown
  // no drawing until their own is fetched (takeSeat asks for the whole board).
  $("board").textContent = "";
  $("board").dataset.boardId = "";
}

async function takeSeat() {
  const side = $("handover").dataset.seat;
  $("handover").hidden = true;
  page.seat = side;
  page.data = null;
  page.boardId = "";
  $("log").textContent = "";
  await refresh();
}

// ------------------------------------------------------------ new game
async function openNewGame() {
  try {
    const data = await api("api/scenarios");
    const select = $("new-scenario");
    select.textContent = "";
    for (const s of data.scenarios) {
      const o = document.createElement("option");
      o.value = s.key;
      o.textContent = s.key;
      if (s.current) o.selected = true;
      select.append(o);
    }
    $("new-dialog").hidden = false;
  } catch (err) {
    say(err.message, "error");
  }
}

async function startNewGame() {
  $("new-dialog").hidden = true;
  page.boardId = "";
  page.seat = "";
  const seed = $("new-seed").value.trim();
  await act("api/new", { scenario: $("new-scenario").value, seed: seed === "" ? 0 : Number(seed) });
}

// ------------------------------------------------------------ the replay viewer
// `pogdsl view`: the same page, stepping through a recorded game's decisions.
page.step = Number(new URLSearchParams(location.search).get("step") || 0);

async function goTo(step) {
  if (page.busy) return;
  page.busy = true;
  const q = new URLSearchParams({ step: String(Math.max(0, step)) });
  if (page.seat) q.set("seat", page.seat);
  if (page.boardId) q.set("board", page.boardId);
  if (page.data) q.set("log_from", String(page.logTotal));
  try {
    show(await api("api/view?" + q.toString()));
    say("");
  } catch (err) {
    say(err.message, "error");
  } finally {
    page.busy = false;
  }
}

function drawStep(data) {
  page.step = data.step;
  $("step").textContent = `decision ${data.step} of ${data.steps}`;
  $("step").dataset.step = data.step;
  $("step").dataset.steps = data.steps;
  $("step-first").disabled = $("step-back").disabled = data.step === 0;
  $("step-last").disabled = $("step-forward").disabled = data.step >= data.steps;
  $("dice").textContent = data.dice.length ? `Dice this step: ${data.dice.join(", ")}` : "";
  $("dice").dataset.dice = data.dice.join(" ");
  $("title").textContent = `${data.scenario.title} \u2014 ${data.label}`;
}

function setUpReplay() {
  $("step-first").addEventListener("click", () => goTo(0));
  $("step-back").addEventListener("click", () => goTo(page.step - 1));
  $("step-forward").addEventListener("click", () => goTo(page.step + 1));
  $("step-last").addEventListener("click", () => goTo(page.data ? page.data.steps : 0));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") goTo(page.step + 1);
    else if (e.key === "ArrowLeft") goTo(page.step - 1);
    else if (e.key === "Home") goTo(0);
    else if (e.key === "End" && page.data) goTo(page.data.steps);
  });
  $("seat").addEventListener("change", () => {
    page.seat = $("seat").value;
    page.boardId = "";
    goTo(page.step);
  });
  goTo(page.step);
}

// ------------------------------------------------------------ start
function start() {
  setUpPanZoom();
  $("board").addEventListener("mouseover", (e) => {
    const g = e.target.closest("g.target");
    if (g) g.classList.add("hover");
  });
  $("board").addEventListener("mouseout", (e) => {
    const g = e.target.closest("g.target");
    if (g) g.classList.remove("hover");
  });
  $("filter-clear").addEventListener("click", clearFilter);
  $("undo").addEventListener("click", () => act("api/undo", { seat: page.seat }));
  $("new").addEventListener("click", openNewGame);
  $("new-start").addEventListener("click", startNewGame);
  $("new-cancel").addEventListener("click", () => { $("new-dialog").hidden = true; });
  $("handover-go").addEventListener("click", takeSeat);
  if (MODE === "view") return setUpReplay();
  $("seat").addEventListener("change", () => {
    const side = $("seat").value;
    const humans = page.data ? page.data.players.filter((p) => p.human).length : 0;
    $("seat").value = page.seat;
    if (humans > 1) handOver(side); else { page.seat = side; page.data = null; $("log").textContent = ""; refresh(); }
  });
  if (TOKEN) $("save").href = "api/save?token=" + encodeURIComponent(TOKEN);
  refresh();
}

start();
