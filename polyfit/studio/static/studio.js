// polyfit studio: draw a board, lint it live, check, count and browse its solutions.
// Everything the page knows about puzzles comes from the server's JSON API (docs/studio.md).
import { CubeView } from "/static/view3d.js";

const $ = (id) => document.getElementById(id);
const EMPTY_MARKS = new Set([".", " "]);

// ---- the design -------------------------------------------------------------------------
const design = { dim: 2, rows: 6, cols: 10, layers: 3, cells: new Map(), name: "", pieces: "pentominoes", mirror: false, meta: [],
                 custom: "", folder: "" };
let layer = 0;             // the layer drawn (3D)
let tool = "cell";
let placeTurn = 0;
let marked = new Set();    // cells the lint marks (keys)
const undoStack = [], redoStack = [];
let pieceSets = {};        // from /api/pieces

const key = (z, r, c) => `${z},${r},${c}`;
const unkey = (k) => k.split(",").map(Number);

function snapshot() {
  return JSON.stringify({ dim: design.dim, rows: design.rows, cols: design.cols, layers: design.layers,
                          cells: [...design.cells] });
}
function restore(text) {
  const s = JSON.parse(text);
  Object.assign(design, { dim: s.dim, rows: s.rows, cols: s.cols, layers: s.layers, cells: new Map(s.cells) });
  layer = Math.min(layer, design.layers - 1);
}
function remember() { undoStack.push(snapshot()); if (undoStack.length > 200) undoStack.shift(); redoStack.length = 0; }
function undo() { if (undoStack.length) { redoStack.push(snapshot()); restore(undoStack.pop()); changed(); } }
function redo() { if (redoStack.length) { undoStack.push(snapshot()); restore(redoStack.pop()); changed(); } }

// The board file's text: rows of '#', '+', letters and '.', layers apart by a blank line.
function boardText(withPieces = false) {
  const lines = [];
  if (design.name) lines.push(`; name: ${design.name}`);
  if (withPieces && design.pieces) lines.push(`; pieces: ${design.pieces}`);
  lines.push(...design.meta);
  const layers = design.dim === 3 ? design.layers : 1;
  for (let z = 0; z < layers; z++) {
    if (z) lines.push("");
    for (let r = 0; r < design.rows; r++) {
      let row = "";
      for (let c = 0; c < design.cols; c++) row += design.cells.get(key(z, r, c)) || ".";
      lines.push(row.replace(/\.+$/, "") || ".");
    }
  }
  return lines.join("\n") + "\n";
}

// Text art into the design (the server has checked it).
function readText(text, dim) {
  const blocks = [[]];
  const meta = {};
  design.meta = [];
  for (const line of text.split(/\r?\n/)) {
    const m = line.match(/^\s*;\s*([\w-]+)\s*:\s*(.*)$/);
    if (m) { meta[m[1]] = m[2].trim(); if (m[1] !== "name" && m[1] !== "pieces") design.meta.push(line.trim()); continue; }
    if (line.trim().startsWith(";")) continue;
    if (!line.trim()) { if (blocks[blocks.length - 1].length) blocks.push([]); continue; }
    blocks[blocks.length - 1].push(line);
  }
  if (!blocks[blocks.length - 1].length) blocks.pop();
  const three = dim ? dim === 3 : blocks.length > 1;
  const layers = three ? blocks : [blocks.flat()];
  const cells = new Map();
  let rows = 1, cols = 1;
  layers.forEach((rowsOf, z) => {
    rows = Math.max(rows, rowsOf.length);
    rowsOf.forEach((line, r) => {
      cols = Math.max(cols, line.replace(/\s+$/, "").length);
      [...line].forEach((ch, c) => { if (!EMPTY_MARKS.has(ch)) cells.set(key(z, r, c), ch); });
    });
  });
  Object.assign(design, { dim: three ? 3 : 2, rows, cols, layers: Math.max(1, layers.length), cells });
  design.name = meta.name || "";
  if (meta.pieces) design.pieces = meta.pieces;
  layer = 0;
}

// ---- talking to the server --------------------------------------------------------------
async function api(method, path, body, signal) {
  const options = { method, headers: {}, signal };
  if (body !== undefined) { options.body = JSON.stringify(body); options.headers["Content-Type"] = "application/json"; }
  const response = await fetch(path, options);
  const type = response.headers.get("Content-Type") || "";
  if (!type.includes("json")) {
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    return response.blob();
  }
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `${response.status}`);
  return data;
}
const puzzleBody = (extra = {}) => ({ board: boardText(), pieces: design.pieces, mirror: design.mirror, dim: design.dim,
                                      custom: design.custom, folder: design.folder, ...extra });

function say(text, kind = "") {
  const m = $("message");
  m.textContent = text;
  m.title = text;
  m.className = "message " + kind;
}

// ---- the grid editor --------------------------------------------------------------------
const grid = $("grid");
const g = grid.getContext("2d");
let cellSize = 32;
const PIECE_COLOURS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#f0e442", "#882255", "#56b4e9", "#d55e00", "#999933", "#332288", "#ffaabb", "#117733"];
const letterColour = (ch) => PIECE_COLOURS[(ch.charCodeAt(0) * 7) % PIECE_COLOURS.length];

function drawGrid() {
  const wrap = grid.parentElement;
  const pad = 24;
  cellSize = Math.max(8, Math.min(52, Math.floor(Math.min((wrap.clientWidth - 2 * pad) / design.cols, (wrap.clientHeight - 2 * pad) / design.rows))));
  const w = design.cols * cellSize, h = design.rows * cellSize;
  const ratio = window.devicePixelRatio || 1;
  grid.width = (w + 2) * ratio; grid.height = (h + 2) * ratio;
  grid.style.width = `${w + 2}px`; grid.style.height = `${h + 2}px`;
  g.setTransform(ratio, 0, 0, ratio, 1 * ratio, 1 * ratio);
  g.clearRect(-1, -1, w + 2, h + 2);
  g.fillStyle = "#fbfbfc"; g.fillRect(0, 0, w, h);
  const z = design.dim === 3 ? layer : 0;
  for (let r = 0; r < design.rows; r++) {
    for (let c = 0; c < design.cols; c++) {
      const x = c * cellSize, y = r * cellSize;
      const mark = design.cells.get(key(z, r, c));
      const below = z > 0 && design.cells.get(key(z - 1, r, c));
      if (!mark && below) { g.fillStyle = "#eef1f5"; g.fillRect(x, y, cellSize, cellSize); }
      if (mark === "#") { g.fillStyle = "#c9d6e3"; g.fillRect(x, y, cellSize, cellSize); }
      else if (mark === "+") {
        g.fillStyle = "#e9eef4"; g.fillRect(x, y, cellSize, cellSize);
        g.strokeStyle = "#7b8da3"; g.lineWidth = 1.5;
        const m = cellSize / 2, s = cellSize * 0.2;
        g.beginPath(); g.moveTo(x + m - s, y + m); g.lineTo(x + m + s, y + m); g.moveTo(x + m, y + m - s); g.lineTo(x + m, y + m + s); g.stroke();
      } else if (mark) {
        g.fillStyle = letterColour(mark); g.fillRect(x, y, cellSize, cellSize);
        g.fillStyle = "#fff"; g.font = `600 ${Math.round(cellSize * 0.5)}px system-ui, sans-serif`;
        g.textAlign = "center"; g.textBaseline = "middle"; g.fillText(mark, x + cellSize / 2, y + cellSize / 2 + 1);
      }
      if (marked.has(key(z, r, c))) {
        g.fillStyle = "rgba(179, 38, 30, 0.28)"; g.fillRect(x, y, cellSize, cellSize);
        g.strokeStyle = "#b3261e"; g.lineWidth = 2; g.strokeRect(x + 2, y + 2, cellSize - 4, cellSize - 4);
      }
    }
  }
  g.strokeStyle = "#e1e5ea"; g.lineWidth = 1;
  g.beginPath();
  for (let r = 0; r <= design.rows; r++) { g.moveTo(0, r * cellSize + 0.5); g.lineTo(w, r * cellSize + 0.5); }
  for (let c = 0; c <= design.cols; c++) { g.moveTo(c * cellSize + 0.5, 0); g.lineTo(c * cellSize + 0.5, h); }
  g.stroke();
  // the outline of the board: where a cell meets a non-cell
  g.strokeStyle = "#33425a"; g.lineWidth = 2; g.beginPath();
  const on = (r, c) => r >= 0 && c >= 0 && r < design.rows && c < design.cols && design.cells.has(key(z, r, c));
  for (let r = 0; r <= design.rows; r++) for (let c = 0; c < design.cols; c++) {
    if (on(r - 1, c) !== on(r, c)) { g.moveTo(c * cellSize, r * cellSize); g.lineTo((c + 1) * cellSize, r * cellSize); }
  }
  for (let r = 0; r < design.rows; r++) for (let c = 0; c <= design.cols; c++) {
    if (on(r, c - 1) !== on(r, c)) { g.moveTo(c * cellSize, r * cellSize); g.lineTo(c * cellSize, (r + 1) * cellSize); }
  }
  g.stroke();
}

function cellAt(event) {
  const box = grid.getBoundingClientRect();
  const c = Math.floor((event.clientX - box.left - 1) / cellSize), r = Math.floor((event.clientY - box.top - 1) / cellSize);
  return r >= 0 && c >= 0 && r < design.rows && c < design.cols ? [r, c] : null;
}

let stroke = null; // "add", "optional", "remove" while the mouse is down
function paint(at) {
  if (!at) return;
  const k = key(design.dim === 3 ? layer : 0, ...at);
  if (stroke === "remove") design.cells.delete(k);
  else design.cells.set(k, stroke === "optional" ? "+" : "#");
}
grid.addEventListener("pointerdown", (event) => {
  const at = cellAt(event);
  if (!at) return;
  remember();
  const k = key(design.dim === 3 ? layer : 0, ...at);
  if (tool === "place") { placePiece(at); changed(); return; }
  const mark = design.cells.get(k);
  if (tool === "erase") stroke = "remove";
  else if (tool === "optional") stroke = mark === "+" ? "remove" : "optional";
  else stroke = mark === "#" ? "remove" : "add";
  grid.setPointerCapture(event.pointerId);
  paint(at); drawGrid();
});
grid.addEventListener("pointermove", (event) => { if (stroke) { paint(cellAt(event)); drawGrid(); } });
grid.addEventListener("pointerup", () => { if (stroke) { stroke = null; changed(); } });

// ---- pre-placing a piece ----------------------------------------------------------------
function placeable() {
  const names = [];
  for (const token of design.pieces.split(",")) {
    const bare = token.trim().replace(/^[^*]*\*/, "").replace(/=.*$/, "");
    const [set, one] = bare.split(":");
    const found = pieceSets[set];
    if (!found) continue;
    for (const [name, cells] of Object.entries(found.pieces)) {
      if (name.length === 1 && /[A-Za-z]/.test(name) && (!one || one === name) && cells[0].length === design.dim) names.push([name, cells]);
    }
  }
  return names;
}
function refreshPlaceable() {
  const select = $("place-piece");
  const before = select.value;
  select.innerHTML = "";
  for (const [name] of placeable()) select.add(new Option(`piece ${name}`, name));
  if ([...select.options].some((o) => o.value === before)) select.value = before;
}
function placePiece([r0, c0]) {
  const entry = placeable().find(([name]) => name === $("place-piece").value);
  if (!entry) { say("choose a piece with a one-letter name to pre-place", "error"); return; }
  const [name, cells] = entry;
  let flat = cells.map((cell) => (cell.length === 3 ? [cell[0], cell[1], cell[2]] : [0, cell[0], cell[1]]));
  for (let t = 0; t < placeTurn; t++) flat = flat.map(([z, r, c]) => [z, c, -r]);
  const minR = Math.min(...flat.map((x) => x[1])), minC = Math.min(...flat.map((x) => x[2]));
  const z0 = design.dim === 3 ? layer : 0;
  const target = flat.map(([z, r, c]) => [z0 + z, r0 + r - minR, c0 + c - minC]);
  const layers = design.dim === 3 ? design.layers : 1;
  if (target.some(([z, r, c]) => z >= layers || r >= design.rows || c >= design.cols)) { say(`piece ${name} does not fit there`, "error"); return; }
  for (const cell of target) design.cells.set(key(...cell), name);
}

// ---- shape operations -------------------------------------------------------------------
function transform(map, swap = false) {
  remember();
  const cells = new Map();
  for (const [k, mark] of design.cells) {
    const [z, r, c] = unkey(k);
    const [nr, nc] = map(r, c);
    if (nr >= 0 && nc >= 0 && nr < (swap ? design.cols : design.rows) && nc < (swap ? design.rows : design.cols)) cells.set(key(z, nr, nc), mark);
  }
  if (swap) [design.rows, design.cols] = [design.cols, design.rows];
  design.cells = cells;
  changed();
}
function resize() {
  remember();
  design.rows = clamp(+$("rows").value, 1, 60);
  design.cols = clamp(+$("cols").value, 1, 60);
  design.layers = clamp(+$("layers").value, 1, 20);
  for (const k of [...design.cells.keys()]) {
    const [z, r, c] = unkey(k);
    if (r >= design.rows || c >= design.cols || z >= (design.dim === 3 ? design.layers : 1)) design.cells.delete(k);
  }
  layer = Math.min(layer, design.layers - 1);
  changed();
}
const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, Number.isFinite(v) ? Math.round(v) : lo));

// ---- after every change: redraw, the URL, the lint --------------------------------------
let lintTimer = null;
function changed() {
  document.body.classList.toggle("dim3", design.dim === 3);
  $("dim2").classList.toggle("on", design.dim === 2);
  $("dim3").classList.toggle("on", design.dim === 3);
  $("rows").value = design.rows; $("cols").value = design.cols; $("layers").value = design.layers;
  $("board-name").value = design.name;
  $("pieces").value = design.pieces;
  $("mirror").checked = design.mirror;
  if ($("custom-pieces").value !== design.custom) $("custom-pieces").value = design.custom;
  if (design.custom) $("custom-box").open = true;
  $("board-text").value = boardText();
  const tabs = $("layer-tabs");
  tabs.innerHTML = "";
  if (design.dim === 3) {
    for (let z = 0; z < design.layers; z++) {
      const b = document.createElement("button");
      b.textContent = `layer ${z + 1}`;
      b.className = z === layer ? "on" : "";
      b.onclick = () => { layer = z; changed(); };
      tabs.appendChild(b);
    }
  }
  drawGrid();
  showFigure();
  refreshPlaceable();
  history.replaceState(null, "", "#" + encodeDesign());
  clearTimeout(lintTimer);
  lintTimer = setTimeout(lint, 300);
}

function encodeDesign() {
  const json = JSON.stringify({ t: boardText(), p: design.pieces, m: design.mirror, d: design.dim, c: design.custom || undefined, f: design.folder || undefined });
  return btoa(String.fromCharCode(...new TextEncoder().encode(json))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decodeDesign(hash) {
  const b64 = hash.replace(/-/g, "+").replace(/_/g, "/");
  const json = new TextDecoder().decode(Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
  const d = JSON.parse(json);
  readText(d.t, d.d);
  design.pieces = d.p ?? design.pieces;
  design.mirror = !!d.m;
  design.custom = d.c || "";
  design.folder = d.f || "";
}

let figureView = null;
function showFigure() {
  if (design.dim !== 3) return;
  figureView ??= new CubeView($("figure-view"));
  const here = [], other = [];
  for (const [k, mark] of design.cells) {
    const [z, r, c] = unkey(k);
    (z === layer ? here : other).push([z, r, c]);
  }
  figureView.show([{ name: "figure", colour: "#b8c7d9", cells: other }, { name: "layer", colour: "#0072b2", cells: here }].filter((p) => p.cells.length), true);
}

// ---- live lint --------------------------------------------------------------------------
let lintSeq = 0, lintAbort = null;
function chip(text, kind = "") { const s = document.createElement("span"); s.className = "chip " + kind; s.textContent = text; return s; }
function piecesArea() {
  let total = 0;
  if (design.custom.trim()) {
    const letters = design.custom.split(/\r?\n/).filter((l) => !l.trim().startsWith(";")).join("").replace(/[.\s]/g, "");
    total += letters.length;
  }
  for (const token of design.pieces.split(",")) {
    const t = token.trim();
    if (!t) continue;
    const [set, one] = t.split(":");
    if (!pieceSets[set] || /[*=]/.test(t)) return null;
    for (const [name, cells] of Object.entries(pieceSets[set].pieces)) if (!one || one === name) total += cells.length;
  }
  return total;
}
async function lint() {
  const seq = ++lintSeq;
  const lintBox = $("lint"), reasons = $("reasons");
  const cells = [...design.cells.values()];
  const count = cells.length, optional = cells.filter((m) => m === "+").length;
  const area = piecesArea();
  $("piece-info").textContent = area === null ? "" : `${area} cells of pieces`;
  if (!count) {
    lintBox.replaceChildren(chip("draw cells to start"));
    reasons.replaceChildren(); marked = new Set(); drawGrid();
    return;
  }
  let result, failure = null;
  lintAbort?.abort(); // the server stops a check nobody waits for
  lintAbort = new AbortController();
  try { result = await api("POST", "/api/check", puzzleBody({ forced_limit: 0 }), lintAbort.signal); }
  catch (error) { failure = error.message; }
  if (seq !== lintSeq) return; // the drawing changed meanwhile
  const chips = [chip(`${count} cells${optional ? ` (${optional} optional)` : ""}${area !== null ? ` · pieces ${area}` : ""}`,
                      area === null ? "" : (area === count || (count - optional <= area && area <= count)) ? "good" : "bad")];
  marked = new Set();
  reasons.replaceChildren();
  if (failure) {
    chips.push(chip("error", "bad"));
    const li = document.createElement("li"); li.textContent = failure; li.className = "error"; reasons.appendChild(li);
  } else {
    const kinds = result.reasons.map((r) => r.kind);
    if (kinds.includes("parity") || kinds.includes("colouring")) chips.push(chip("parity ✗", "bad"));
    else if (!kinds.includes("area")) chips.push(chip("parity ✓", "good"));
    const nowhere = result.reasons.filter((r) => r.kind === "piece-fits-nowhere").map((r) => r.piece);
    if (nowhere.length) chips.push(chip(`fits nowhere: ${nowhere.join(" ")}`, "bad"));
    chips.push(chip({ unique: "unique", multiple: "several solutions", none: "no solution" }[result.verdict],
                    { unique: "good", multiple: "warn", none: "bad" }[result.verdict]));
    for (const reason of result.reasons) {
      const li = document.createElement("li"); li.textContent = reason.text.replace(/^no solution: /, ""); reasons.appendChild(li);
      if (Array.isArray(reason.cells)) for (const cell of reason.cells) marked.add(cell.length === 3 ? key(...cell) : key(0, ...cell));
    }
  }
  lintBox.replaceChildren(...chips);
  drawGrid();
}

// ---- check and count --------------------------------------------------------------------
const fmt = (n) => Number(n).toLocaleString("en-US");
function showVerdict(title, kind, facts) {
  const box = $("verdict");
  box.replaceChildren();
  delete box.dataset.distinct; delete box.dataset.nodes;
  const big = document.createElement("div"); big.className = "big " + kind; big.textContent = title; box.appendChild(big);
  const dl = document.createElement("dl");
  for (const [k, v] of facts) {
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v;
    dl.append(dt, dd);
  }
  box.appendChild(dl);
}
async function check() {
  say("checking…");
  try {
    const r = await api("POST", "/api/check", puzzleBody());
    const facts = [];
    if (r.difficulty) facts.push(["difficulty", `${r.difficulty.score} (${fmt(r.difficulty.nodes_to_first)} nodes to the first)`]);
    if (r.forced) facts.push(["forced", `${r.forced.placements.length} placements in every solution`]);
    facts.push(["symmetries", r.symmetries], ["search", `${fmt(r.nodes)} nodes, ${r.seconds.toFixed(2)} s`]);
    for (const reason of r.reasons) facts.push(["why", reason.text.replace(/^no solution: /, "")]);
    showVerdict({ unique: "Unique solution", multiple: "Several solutions", none: "No solution" }[r.verdict], r.verdict, facts);
    say("");
  } catch (error) { say(error.message, "error"); }
}

// A time in seconds as a person reads it.
function duration(t) {
  if (t < 0.01) return t ? "under 0.01 s" : "0 s";
  if (t < 60) return `${t < 10 ? t.toFixed(2) : t.toFixed(1)} s`;
  for (const [unit, size] of [["years", 31557600], ["days", 86400], ["hours", 3600], ["min", 60]]) {
    if (t >= size) return `${(t / size).toPrecision(3)} ${unit}`;
  }
}
async function estimate() {
  say("estimating…");
  $("estimate").disabled = true;
  try {
    const r = await api("POST", "/api/estimate", puzzleBody());
    const range = (lo, hi, show = fmt) => (r.exact ? "exact" : `95% range ${show(lo)} to ${show(hi)}`);
    const facts = [
      ["nodes", `${fmt(r.nodes)} (${range(r.nodes_low, r.nodes_high)})`],
      ["solutions", `${fmt(r.solutions)} (${range(r.solutions_low, r.solutions_high)}) met by the search; symmetric copies are not searched`],
      ["time", r.seconds === null ? `unknown on ${r.backend}: no sample of the search finished in the time allowed to measure its speed` : `${duration(r.seconds)} (${range(r.seconds_low, r.seconds_high, duration)}) on ${r.backend}`],
      ["probes", r.exact ? `${fmt(r.probes)}, then counted exactly: the search was quicker than estimating it` : `${fmt(r.probes)} random paths down the search tree`],
    ];
    showVerdict(r.exact ? `Exact: ${fmt(r.nodes)} nodes` : `About ${fmt(r.nodes)} nodes`, "estimate", facts);
    $("verdict").dataset.nodes = r.nodes;
    say("");
  } catch (error) { say(error.message, "error"); }
  $("estimate").disabled = false;
}

let job = null;
async function count() {
  if (job) return;
  say("");
  $("bar").style.width = "0";
  $("speed").textContent = "starting…";
  try { job = (await api("POST", "/api/count", puzzleBody())).job; }
  catch (error) { say(error.message, "error"); $("speed").textContent = ""; return; }
  $("cancel").disabled = false; $("count").disabled = true;
  const current = job;
  while (job === current) {
    let s;
    try { s = await api("GET", `/api/jobs/${current}`); } catch (error) { say(error.message, "error"); break; }
    $("bar").style.width = `${Math.round(s.progress * 100)}%`;
    $("speed").textContent = s.nodes ? `${fmt(s.nodes)} nodes · ${fmt(s.nodes_per_second)} nodes/s · ${s.seconds.toFixed(1)} s` : `${s.seconds.toFixed(1)} s`;
    if (s.state === "done") {
      const r = s.result;
      const facts = [["in all", fmt(r.total)]];
      if (design.dim === 3) facts.push(["up to rotation", fmt(r.distinct_rotations)]);
      facts.push(["symmetries", r.symmetries], ["search", `${fmt(r.nodes)} nodes, ${r.seconds.toFixed(2)} s`]);
      showVerdict(`${fmt(r.distinct)} distinct solution${r.distinct === 1 ? "" : "s"}`, r.distinct === 1 ? "unique" : r.distinct ? "multiple" : "none", facts);
      $("verdict").dataset.distinct = r.distinct;
      $("speed").textContent = `${fmt(r.nodes)} nodes in ${r.seconds.toFixed(2)} s`;
      break;
    }
    if (s.state !== "running") { if (s.state === "error") say(s.error, "error"); break; }
    await new Promise((ok) => setTimeout(ok, 150));
  }
  if (job === current) job = null;
  $("cancel").disabled = true; $("count").disabled = false;
}
async function cancel() {
  const current = job;
  if (!current) return;
  job = null;
  try { await api("DELETE", `/api/jobs/${current}`); } catch (error) { say(error.message, "error"); }
  $("speed").textContent = "count cancelled";
  $("bar").style.width = "0";
  $("cancel").disabled = true; $("count").disabled = false;
  say("count cancelled");
}

// ---- solutions --------------------------------------------------------------------------
let solutions = null, shown = 0, solutionView = null;
async function solve() {
  say("finding solutions…");
  try {
    solutions = await api("POST", "/api/solutions", puzzleBody({ limit: 200 }));
    shown = 0;
    say(solutions.solutions.length ? "" : "no solution", solutions.solutions.length ? "" : "error");
    showSolution();
  } catch (error) { say(error.message, "error"); }
}
function showSolution() {
  const list = solutions?.solutions || [];
  $("sol-index").textContent = list.length ? `${shown + 1} of ${list.length}${list.length >= 200 ? "+" : ""}` : "–";
  const three = solutions && solutions.cells.length && solutions.cells[0].length === 3;
  $("sol-canvas").style.display = three ? "none" : "block";
  $("sol-3d").style.display = three ? "block" : "none";
  if (!list.length) { drawSolution2d(null); return; }
  const solution = list[shown];
  if (three) {
    solutionView ??= new CubeView($("sol-3d"));
    const zs = solutions.cells.map((c) => c[0]);
    const lo = Math.min(...zs), hi = Math.max(...zs);
    $("layer-cut").min = 1; $("layer-cut").max = hi - lo + 1;
    solutionView.show(Object.entries(solution).map(([name, cells]) => ({ name, cells, colour: solutions.colours[name] || "#888" })));
    solutionView.setExplode(+$("explode").value / 100);
    solutionView.setLayerCut(lo + +$("layer-cut").value);
  } else drawSolution2d(solution);
}
function drawSolution2d(solution) {
  const canvas = $("sol-canvas"), box = canvas.parentElement;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = box.clientWidth * ratio; canvas.height = box.clientHeight * ratio;
  const s = canvas.getContext("2d");
  s.setTransform(ratio, 0, 0, ratio, 0, 0);
  s.clearRect(0, 0, box.clientWidth, box.clientHeight);
  if (!solution) return;
  const owner = new Map();
  for (const [name, cells] of Object.entries(solution)) for (const [r, c] of cells) owner.set(`${r},${c}`, name);
  const rows = Math.max(...solutions.cells.map((c) => c[0])) + 1, cols = Math.max(...solutions.cells.map((c) => c[1])) + 1;
  const size = Math.floor(Math.min((box.clientWidth - 24) / cols, (box.clientHeight - 24) / rows));
  const x0 = (box.clientWidth - cols * size) / 2, y0 = (box.clientHeight - rows * size) / 2;
  for (const [r, c] of solutions.cells) {
    const name = owner.get(`${r},${c}`);
    s.fillStyle = name ? solutions.colours[name] : "#e6e9ee";
    s.fillRect(x0 + c * size, y0 + r * size, size, size);
  }
  s.strokeStyle = "#1f2430"; s.lineWidth = 2; s.lineCap = "round"; s.beginPath();
  const at = (r, c) => owner.get(`${r},${c}`) ?? (solutions.cells.some(([a, b]) => a === r && b === c) ? "" : null);
  for (let r = 0; r <= rows; r++) for (let c = 0; c < cols; c++) {
    if (at(r - 1, c) !== at(r, c)) { s.moveTo(x0 + c * size, y0 + r * size); s.lineTo(x0 + (c + 1) * size, y0 + r * size); }
  }
  for (let r = 0; r < rows; r++) for (let c = 0; c <= cols; c++) {
    if (at(r, c - 1) !== at(r, c)) { s.moveTo(x0 + c * size, y0 + r * size); s.lineTo(x0 + c * size, y0 + (r + 1) * size); }
  }
  s.stroke();
}
async function exportKit() {
  say("making the STL kit…");
  try {
    const blob = await api("POST", "/api/export/stl", puzzleBody());
    download(blob, `${(design.pieces || "pieces").replace(/[^\w.-]+/g, "-")}-kit.zip`);
    say("STL kit saved: one STL file per piece", "ok");
  } catch (error) { say(error.message, "error"); }
}
function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
async function exportSolution(kind) {
  const solution = solutions?.solutions?.[shown];
  if (!solution) { say("show a solution first", "error"); return; }
  try {
    const blob = await api("POST", `/api/export/${kind}`, puzzleBody({ solution }));
    download(blob, `${(design.name || "solution").replace(/[^\w.-]+/g, "-")}-${shown + 1}.${kind}`);
  } catch (error) { say(error.message, "error"); }
}

// ---- files ------------------------------------------------------------------------------
async function listFiles() {
  try {
    const { files } = await api("GET", "/api/files");
    const select = $("file-list");
    select.length = 1;
    for (const name of files.filter((f) => !/\.pieces\b/.test(f))) select.add(new Option(name, name));
  } catch (error) { say(error.message, "error"); }
}
async function openFile(name) {
  if (!name) return;
  try {
    const file = await api("GET", `/api/files/${name.split("/").map(encodeURIComponent).join("/")}`);
    remember();
    readText(file.text, file.dim);
    design.folder = name.includes("/") ? name.slice(0, name.lastIndexOf("/")) : "";
    design.custom = "";
    $("file-name").value = name;
    solutions = null; showSolution();
    say(`opened ${name}`, "ok");
    changed();
  } catch (error) { say(error.message, "error"); }
}
const filePath = (name) => `/api/files/${name.split("/").map(encodeURIComponent).join("/")}`;
async function put(name, text) {
  try {
    await api("PUT", filePath(name), { text });
    return true;
  } catch (error) {
    if (/exists/.test(error.message) && confirm(`${name} exists. Replace it?`)) {
      await api("PUT", filePath(name), { text, overwrite: true });
      return true;
    }
    if (/exists/.test(error.message)) return false;
    throw error;
  }
}
async function save() {
  const name = $("file-name").value.trim();
  if (!name) { say("give the file a name, such as my-board.txt", "error"); $("file-name").focus(); return; }
  const folder = name.includes("/") ? name.slice(0, name.lastIndexOf("/")) : "";
  const spec = design.pieces;
  try {
    if (design.custom.trim()) {
      // the custom pieces go in a pieces file beside the board, named on its '; pieces:' line
      const stem = name.slice(folder.length ? folder.length + 1 : 0).replace(/\.[^.]*$/, "");
      const piecesFile = `${stem}.pieces`;
      const text = (design.dim === 3 && !/^\s*;\s*dim:/m.test(design.custom) ? "; dim: 3\n" : "") + design.custom;
      if (!(await put(folder ? `${folder}/${piecesFile}` : piecesFile, text))) { say("not saved"); return; }
      const parts = spec.split(",").map((t) => t.trim()).filter(Boolean);
      if (!parts.includes(piecesFile)) parts.push(piecesFile);
      design.pieces = parts.join(",");
    }
    const saved = await put(name, boardText(true));
    if (design.custom.trim()) design.pieces = spec;
    say(saved ? `saved ${name}` : "not saved", saved ? "ok" : "");
    if (saved) design.folder = folder;
  } catch (error) { design.pieces = spec; say(error.message, "error"); }
  listFiles();
}
async function applyText() {
  const text = $("board-text").value;
  try {
    await api("POST", "/api/check", { ...puzzleBody({ forced_limit: 0 }), board: text, dim: undefined });
  } catch (error) {
    if (/^board:\d+:\d+:|has no cells|must be the board/.test(error.message)) { say(error.message, "error"); return; }
  }
  remember();
  readText(text);
  say("");
  changed();
}

// ---- wiring -----------------------------------------------------------------------------
function wire() {
  for (const b of document.querySelectorAll("[data-tool]")) {
    b.onclick = () => {
      tool = b.dataset.tool;
      for (const o of document.querySelectorAll("[data-tool]")) o.classList.toggle("on", o === b);
    };
  }
  for (const b of document.querySelectorAll("[data-shift]")) {
    const [dr, dc] = b.dataset.shift.split(",").map(Number);
    b.onclick = () => transform((r, c) => [r + dr, c + dc]);
  }
  $("mirror-drawing").onclick = () => transform((r, c) => [r, design.cols - 1 - c]);
  $("rotate").onclick = () => transform((r, c) => [c, design.rows - 1 - r], true);
  $("place-turn").onclick = () => { placeTurn = (placeTurn + 1) % 4; say(`pre-placed piece turned ${placeTurn * 90}°`); };
  $("dim2").onclick = () => { if (design.dim !== 2) { remember(); design.dim = 2; layer = 0; for (const k of [...design.cells.keys()]) if (unkey(k)[0] > 0) design.cells.delete(k); changed(); } };
  $("dim3").onclick = () => { if (design.dim !== 3) { remember(); design.dim = 3; if (pieceSets[design.pieces]?.dim === 2) design.pieces = "soma"; changed(); } };
  for (const id of ["rows", "cols", "layers"]) $(id).onchange = resize;
  $("fill").onclick = () => {
    remember();
    const layers = design.dim === 3 ? design.layers : 1;
    for (let z = 0; z < layers; z++) for (let r = 0; r < design.rows; r++) for (let c = 0; c < design.cols; c++) if (!design.cells.has(key(z, r, c))) design.cells.set(key(z, r, c), "#");
    changed();
  };
  $("clear").onclick = () => { remember(); design.cells = new Map(); changed(); };
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  document.addEventListener("keydown", (e) => {
    if (e.target.matches("input, textarea")) return;
    if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); e.shiftKey ? redo() : undo(); }
    if ((e.ctrlKey || e.metaKey) && e.key === "y") { e.preventDefault(); redo(); }
  });
  $("pieces").onchange = () => { design.pieces = $("pieces").value.trim(); changed(); };
  $("mirror").onchange = () => { design.mirror = $("mirror").checked; changed(); };
  $("custom-pieces").oninput = () => { design.custom = $("custom-pieces").value; clearTimeout(lintTimer); lintTimer = setTimeout(() => changed(), 400); };
  $("board-name").onchange = () => { design.name = $("board-name").value.trim(); changed(); };
  $("apply-text").onclick = applyText;
  $("check").onclick = check;
  $("count").onclick = count;
  $("estimate").onclick = estimate;
  $("cancel").onclick = cancel;
  $("solve").onclick = solve;
  $("prev").onclick = () => { if (solutions?.solutions.length) { shown = (shown + solutions.solutions.length - 1) % solutions.solutions.length; showSolution(); } };
  $("next").onclick = () => { if (solutions?.solutions.length) { shown = (shown + 1) % solutions.solutions.length; showSolution(); } };
  $("explode").oninput = () => solutionView?.setExplode(+$("explode").value / 100);
  $("layer-cut").oninput = () => { if (solutions) showSolution(); };
  $("export-png").onclick = () => exportSolution("png");
  $("export-glb").onclick = () => exportSolution("glb");
  $("export-stl").onclick = exportKit;
  $("file-list").onchange = () => openFile($("file-list").value);
  $("save").onclick = save;
  $("share").onclick = async () => {
    try { await navigator.clipboard.writeText(location.href); say("link copied", "ok"); }
    catch { say("the link is in the address bar", "ok"); }
  };
  new ResizeObserver(() => { drawGrid(); if (solutions && !solutionView?.pieces.length) showSolution(); }).observe(grid.parentElement);
}

async function start() {
  wire();
  try {
    pieceSets = (await api("GET", "/api/pieces")).sets;
    for (const [name, set] of Object.entries(pieceSets)) $("piece-sets").appendChild(new Option(set.summary, name));
  } catch (error) { say(error.message, "error"); }
  if (location.hash.length > 1) {
    try { decodeDesign(location.hash.slice(1)); } catch { say("the link's design could not be read", "error"); }
  }
  listFiles();
  changed();
  document.body.dataset.ready = "yes";
}
start();
