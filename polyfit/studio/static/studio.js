// polyfit studio: draw a board, lint it live, check, count and browse its solutions.
// Everything the page knows about puzzles comes from the server's JSON API (docs/studio.md).
import { CubeView } from "/static/view3d.js";

const $ = (id) => document.getElementById(id);
const EMPTY_MARKS = new Set([".", " "]);

// ---- the design -------------------------------------------------------------------------
const design = { dim: 2, rows: 6, cols: 10, layers: 3, cells: new Map(), name: "", pieces: "pentominoes", mirror: false, meta: [],
                 custom: "", folder: "", file: "", filePieces: [], problem: 1, boards: [], boardsOf: "", lattice: "", text: "" };
// file: a puzzle file whose pieces (weights, groups) the design uses; problem: which of its
// boards (from 1), boards: their names when it holds several. lattice: a board on a lattice the
// page does not draw (its '; lattice:' line names one but squares and cubes): solved and shown
// in 3D as it is, read-only, its text (text) sent as it was read.
const DRAWN_LATTICES = new Set(["square", "cubic"]);
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
                          cells: [...design.cells], file: design.file, filePieces: design.filePieces,
                          problem: design.problem, boards: design.boards, lattice: design.lattice, text: design.text });
}
function restore(text) {
  const s = JSON.parse(text);
  Object.assign(design, { dim: s.dim, rows: s.rows, cols: s.cols, layers: s.layers, cells: new Map(s.cells),
                          file: s.file || "", filePieces: s.filePieces || [], problem: s.problem || 1, boards: s.boards || [],
                          lattice: s.lattice || "", text: s.text || "" });
  layer = Math.min(layer, design.layers - 1);
}
function remember() {
  undoStack.push(snapshot()); if (undoStack.length > 200) undoStack.shift(); redoStack.length = 0;
}
function leaveFile() {
  if (!design.file) return;
  design.file = ""; design.filePieces = []; design.problem = 1; design.boards = [];
}
function undo() { if (undoStack.length) { redoStack.push(snapshot()); restore(undoStack.pop()); changed(); } }
function redo() { if (redoStack.length) { undoStack.push(snapshot()); restore(redoStack.pop()); changed(); } }

// The board file's text: rows of '#', '+', letters and '.', layers apart by a blank line.
function boardText(withPieces = false, named = true) {
  if (design.lattice) return design.text;  // read-only: the text as it was read
  const lines = [];
  if (design.name && named) lines.push(`; name: ${design.name}`);
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
  design.lattice = meta.lattice && !DRAWN_LATTICES.has(meta.lattice) ? meta.lattice : "";
  design.text = design.lattice ? text : "";
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
                                      custom: design.custom, folder: design.folder, file: design.file || undefined,
                                      problem: design.file ? design.problem : undefined, disassemble: $("disassemble").checked, ...extra });

// A word in the bar at the top; an error goes in the box over the board instead, whole and
// wrapped, until the next thing is said or it is closed.
function say(text, kind = "") {
  const m = $("message");
  $("error").hidden = kind !== "error";
  if (kind === "error") $("error-text").textContent = text;
  m.textContent = kind === "error" ? "" : text;
  m.title = m.textContent;
  m.className = "message " + kind;
}

// ---- results, and the design they belong to ---------------------------------------------
// Every result (the verdict of Check, Estimate or Count, the solutions) keeps the key of the
// design it was computed for. When the design is another, the result is greyed and says so,
// and solutions leave the board; an answer that comes back late is shown the same way.
const designKey = () => JSON.stringify([boardText(false, false), design.pieces, design.mirror, design.dim, design.custom, design.folder,
                                         design.file, design.file ? design.problem : 0, $("disassemble").checked]);
let verdictKey = null;     // the design the verdict box speaks of
let countKey = null;       // the design the progress bar and its line speak of
let verdictSeq = 0;        // the latest Check or Estimate asked: an older answer is dropped
let solutions = null;      // the answer of /api/solutions, with the key of its design
let shown = 0;             // the solution shown
let showing = false;       // drawn on the board (else the drawing is)
const colours = {};        // piece name (or label) -> "#rrggbb", as the server gives them

function mergeColours(more) { Object.assign(colours, more || {}); }
function currentSolution() {
  const list = solutions?.solutions || [];
  return showing && list.length && solutions.key === designKey() ? list[shown] : null;
}
function refreshResults() {
  const now = designKey();
  const staleVerdict = verdictKey !== null && verdictKey !== now;
  $("verdict").classList.toggle("stale", staleVerdict);
  $("verdict-note").hidden = !staleVerdict;
  const staleCount = countKey !== null && countKey !== now;
  for (const box of [$("speed"), $("bar").parentElement]) box.classList.toggle("stale", staleCount);
  const list = solutions?.solutions || [];
  const current = solutions !== null && solutions.key === now;
  $("solutions-note").hidden = solutions === null || current;
  $("sol-index").textContent = current && list.length ? `${shown + 1} of ${list.length}${list.length >= 200 ? "+" : ""}` : "–";
  for (const id of ["prev", "next"]) $(id).disabled = !current || list.length < 2;
  const taken = current && list.length ? solutions.disassemblies?.[shown] : null;
  $("sol-level").hidden = !taken;
  if (taken) $("sol-level").textContent = `level ${taken.level} · ${taken.moves.length} move${taken.moves.length === 1 ? "" : "s"} to take it apart`;
  for (const id of ["export-png", "export-glb"]) $(id).disabled = !current || !list.length;
  $("hide-solution").hidden = !currentSolution();
  $("hide-solution").textContent = design.lattice ? "Back to the board" : "Back to the drawing";
  refreshPlayback();
  $("show-drawing-note").hidden = !currentSolution() || !!design.lattice;  // read-only: the 3D view only
}

// ---- the grid editor --------------------------------------------------------------------
const grid = $("grid");
const g = grid.getContext("2d");
let cellSize = 32;
const UNKNOWN_PIECE = "#8c99ab";  // a pre-placed letter before the server has given its colour
// Dark letters on light colours, white ones on dark colours (relative luminance, as polyfit's pictures do).
function letterOn(hex) {
  const [red, green, blue] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16) / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.3 ? "#1f2430" : "#ffffff";
}
function letter(text, x, y, size, fill) {
  g.fillStyle = letterOn(fill);
  g.font = `650 ${Math.round(size * (text.length > 2 ? 0.36 : 0.5))}px system-ui, sans-serif`;
  g.textAlign = "center"; g.textBaseline = "middle";
  g.fillText(text, x + size / 2, y + size / 2 + 1);
}

function drawGrid() {
  const wrap = grid.parentElement;
  const pad = 24;
  cellSize = Math.max(8, Math.min(84, Math.floor(Math.min((wrap.clientWidth - 2 * pad) / design.cols, (wrap.clientHeight - 2 * pad) / design.rows))));
  const w = design.cols * cellSize, h = design.rows * cellSize;
  const ratio = window.devicePixelRatio || 1;
  grid.width = (w + 2) * ratio; grid.height = (h + 2) * ratio;
  grid.style.width = `${w + 2}px`; grid.style.height = `${h + 2}px`;
  g.setTransform(ratio, 0, 0, ratio, 1 * ratio, 1 * ratio);
  g.clearRect(-1, -1, w + 2, h + 2);
  g.fillStyle = "#fbfbfc"; g.fillRect(0, 0, w, h);
  const z = design.dim === 3 ? layer : 0;
  const solution = currentSolution();
  const owner = new Map();  // cell key -> the label of the piece on it, in the solution shown
  if (solution) {
    for (const [label, cells] of Object.entries(solution)) for (const cell of cells) owner.set(cell.length === 3 ? key(...cell) : key(0, ...cell), label);
  }
  for (let r = 0; r < design.rows; r++) {
    for (let c = 0; c < design.cols; c++) {
      const x = c * cellSize, y = r * cellSize;
      const mark = design.cells.get(key(z, r, c));
      const label = owner.get(key(z, r, c));
      const below = z > 0 && design.cells.get(key(z - 1, r, c));
      if (!mark && below) { g.fillStyle = "#eef1f5"; g.fillRect(x, y, cellSize, cellSize); }
      if (label) { g.fillStyle = solutions.colours[label] || UNKNOWN_PIECE; g.fillRect(x, y, cellSize, cellSize); }
      else if (mark === "#") { g.fillStyle = "#c9d6e3"; g.fillRect(x, y, cellSize, cellSize); }
      else if (mark === "+") {
        g.fillStyle = "#e9eef4"; g.fillRect(x, y, cellSize, cellSize);
        g.strokeStyle = "#7b8da3"; g.lineWidth = 1.5;
        const m = cellSize / 2, s = cellSize * 0.2;
        g.beginPath(); g.moveTo(x + m - s, y + m); g.lineTo(x + m + s, y + m); g.moveTo(x + m, y + m - s); g.lineTo(x + m, y + m + s); g.stroke();
      } else if (mark) {
        const fill = colours[mark] || UNKNOWN_PIECE;
        g.fillStyle = fill; g.fillRect(x, y, cellSize, cellSize);
        letter(mark, x, y, cellSize, fill);
      }
      if (!solution && marked.has(key(z, r, c))) {
        g.fillStyle = "rgba(179, 38, 30, 0.28)"; g.fillRect(x, y, cellSize, cellSize);
        g.strokeStyle = "#b3261e"; g.lineWidth = 2; g.strokeRect(x + 2, y + 2, cellSize - 4, cellSize - 4);
      }
    }
  }
  g.strokeStyle = solution ? "rgba(31, 36, 48, 0.16)" : "#e1e5ea"; g.lineWidth = 1;
  g.beginPath();
  for (let r = 0; r <= design.rows; r++) { g.moveTo(0, r * cellSize + 0.5); g.lineTo(w, r * cellSize + 0.5); }
  for (let c = 0; c <= design.cols; c++) { g.moveTo(c * cellSize + 0.5, 0); g.lineTo(c * cellSize + 0.5, h); }
  g.stroke();
  // outlines where a region meets another: the board's edge, and in a solution each piece's
  const inside = (r, c) => r >= 0 && c >= 0 && r < design.rows && c < design.cols && design.cells.has(key(z, r, c));
  const region = (r, c) => (!inside(r, c) ? null : solution ? owner.get(key(z, r, c)) ?? "" : "cell");
  g.strokeStyle = solution ? "#1f2430" : "#33425a"; g.lineWidth = solution ? 2.5 : 2; g.lineCap = "round"; g.beginPath();
  for (let r = 0; r <= design.rows; r++) for (let c = 0; c < design.cols; c++) {
    if (region(r - 1, c) !== region(r, c)) { g.moveTo(c * cellSize, r * cellSize); g.lineTo((c + 1) * cellSize, r * cellSize); }
  }
  for (let r = 0; r < design.rows; r++) for (let c = 0; c <= design.cols; c++) {
    if (region(r, c - 1) !== region(r, c)) { g.moveTo(c * cellSize, r * cellSize); g.lineTo(c * cellSize, (r + 1) * cellSize); }
  }
  g.stroke();
  if (solution) {
    // each piece's letter once, on its cell nearest the middle of its cells on this layer
    for (const [label, cells] of Object.entries(solution)) {
      const here = cells.map((cell) => (cell.length === 3 ? cell : [0, ...cell])).filter((cell) => cell[0] === z);
      if (!here.length) continue;
      const mr = here.reduce((t, cell) => t + cell[1], 0) / here.length, mc = here.reduce((t, cell) => t + cell[2], 0) / here.length;
      const [, r, c] = here.reduce((best, cell) => (Math.hypot(cell[1] - mr, cell[2] - mc) < Math.hypot(best[1] - mr, best[2] - mc) ? cell : best));
      letter(label.replace(/#\d+$/, ""), c * cellSize, r * cellSize, cellSize, solutions.colours[label] || UNKNOWN_PIECE);
    }
  }
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
  document.body.classList.toggle("readonly", !!design.lattice);
  $("readonly-note").textContent = design.lattice
    ? `A board on the ${design.lattice} lattice: read-only. The studio solves it and shows it in 3D; draw it with polyfit or BurrTools (the text below can be changed and used).`
    : "";
  $("dim2").classList.toggle("on", design.dim === 2);
  $("dim3").classList.toggle("on", design.dim === 3);
  $("rows").value = design.rows; $("cols").value = design.cols; $("layers").value = design.layers;
  $("board-name").value = design.name;
  $("pieces").value = design.pieces;
  showBoards();
  $("pieces").placeholder = design.file ? `the pieces of ${design.file}` : "pentominoes";
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
  mirrorInfo();
  if (design.file) $("piece-info").textContent = filePiecesInfo();
  if (designKey() !== lintKey) { $("lint").classList.add("stale"); $("reasons").classList.add("stale"); marked = new Set(); }
  refreshResults();
  drawGrid();
  showFigure();
  refreshPlaceable();
  history.replaceState(null, "", "#" + encodeDesign());
  clearTimeout(lintTimer);
  lintTimer = setTimeout(lint, 300);
}

// What the turn-over box does for the pieces chosen: flat pieces are turned over anyway,
// one-sided and solid ones are not unless it is checked.
function mirrorInfo() {
  const box = $("mirror-info");
  if (design.mirror) { box.textContent = "Every piece may also be placed as its mirror image (turned over), as --mirror does."; return; }
  const kinds = new Set();
  for (const token of design.pieces.split(",")) {
    const set = token.trim().replace(/^[^*]*\*/, "").replace(/=.*$/, "").split(":")[0];
    const found = pieceSets[set];
    if (!set || (!found && !/[./]/.test(set))) continue;  // not a set nor a file: the lint says so
    kinds.add(!found ? "file" : found.dim === 3 ? "solid" : found.mirror === true ? "flat" : found.mirror === false ? "one-sided" : "mixed");
  }
  if (design.custom.trim()) kinds.add(design.dim === 3 ? "solid" : "flat");
  const says = {
    flat: "Flat pieces like these are turned over already: checking changes nothing for them.",
    "one-sided": "One-sided pieces are only turned in the plane (F and F′ are two pieces): check to let them be turned over too.",
    solid: "Solid pieces are turned every way but never mirrored, as in your hand: check to allow their mirror images too.",
    file: "Pieces from a file follow its '; mirror:' line (flat ones are turned over unless it says no): check to let every piece be turned over.",
    mixed: "Some of these pieces are turned over and some are not: check to let every piece be turned over.",
  };
  box.textContent = [...kinds].map((k) => says[k]).join(" ");
}

function encodeDesign() {
  const json = JSON.stringify({ t: boardText(), p: design.pieces, m: design.mirror, d: design.dim, c: design.custom || undefined, f: design.folder || undefined,
                                x: design.file || undefined, xp: design.file ? design.filePieces : undefined,
                                xn: design.file && design.problem > 1 ? design.problem : undefined });
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
  design.file = d.x || "";
  design.filePieces = d.xp || [];
  design.problem = d.xn || 1;
  design.boards = [];
}

let figureView = null, figureShows = null;
function showFigure() {
  if (design.lattice) { showSolids(); return; }
  $("figure-note").hidden = true;  // a note on another lattice's solids
  if (design.dim !== 3) return;
  figureView ??= new CubeView($("figure-view"));
  figureView.figure = null;
  const solution = currentSolution();
  if (solution) {
    const zs = solutions.cells.map((c) => c[0]);
    const lo = Math.min(...zs), hi = Math.max(...zs);
    if (+$("layer-cut").max !== hi - lo + 1) { $("layer-cut").max = hi - lo + 1; $("layer-cut").value = hi - lo + 1; }  // a new figure: every layer
    $("layer-cut").min = 1;
    if (figureShows !== solution || solidsShown !== null) {
      solidsShown = null;
      figureView.show(Object.entries(solution).map(([name, cells]) => ({ name, cells, colour: solutions.colours[name] || UNKNOWN_PIECE })), figureShows !== null);
      figureShows = solution;
    }
    figureView.setExplode(+$("explode").value / 100);
    figureView.setLayerCut(lo + +$("layer-cut").value);
    if (playback.solution === solution) figureView.setOffsets(...playback.pose());
    else stopPlayback();
    return;
  }
  stopPlayback();
  figureShows = null;
  solidsShown = null;
  figureView.setExplode(0);
  figureView.setLayerCut(Infinity);
  const here = [], other = [];
  for (const [k, mark] of design.cells) {
    const [z, r, c] = unkey(k);
    (z === layer ? here : other).push([z, r, c]);
  }
  figureView.show([{ name: "figure", colour: "#b8c7d9", cells: other }, { name: "layer", colour: "#0072b2", cells: here }].filter((p) => p.cells.length), true);
}

// ---- a board on another lattice: the library's solids, read-only ---------------------------
// The server makes each piece's solid (POST /api/meshes: the solids of polyfit's 3D models);
// the page only draws them. A lattice the library has no solids for is said in one line.
const solidsCache = new Map();  // a solution shown (or "board:" and the design's key) -> /api/meshes
let solidsShown = null;
const solidsKey = (solution) => solution || `board:${designKey()}`;
async function solidsOf(solution) {
  const key = solidsKey(solution);
  if (!solidsCache.has(key)) {
    const asked = api("POST", "/api/meshes", puzzleBody(solution ? { solution } : {}));
    solidsCache.set(key, asked);
    asked.catch(() => solidsCache.delete(key));  // asked again next time
  }
  return solidsCache.get(key);
}
async function showSolids() {
  figureView ??= new CubeView($("figure-view"));
  const solution = currentSolution(), key = solidsKey(solution);
  if (solidsShown !== key) {
    let answer;
    try { answer = await solidsOf(solution); }
    catch (error) {
      if (solidsKey(currentSolution()) === key) { $("figure-note").textContent = error.message; $("figure-note").hidden = false; figureView.clear(); figureView.render(); solidsShown = null; }
      return;
    }
    if (solidsKey(currentSolution()) !== key || solidsShown === key) return;  // another solution or design meanwhile, or drawn by another call
    $("figure-note").hidden = true;
    mergeColours(answer.colours);
    figureView.showMeshes(Object.entries(answer.meshes).map(([name, mesh]) => ({ name, ...mesh, colour: solution ? colours[name] || UNKNOWN_PIECE : "#b8c7d9" })),
                          solidsShown !== null);
    solidsShown = key;
    figureShows = null;
    figureView.figure = key;
  }
  figureView.setExplode(solution ? +$("explode").value / 100 : 0);
  if (solution && playback.solution === solution) figureView.setOffsets(...playback.pose());
  else stopPlayback();
}

// ---- the disassembly, played in the 3D view ----------------------------------------------
// The server takes the solution shown apart (POST /api/disassembly: the library's
// Solution.disassemble(), the moves polyfit solve --disassemble --moves prints); the page only
// slides the pieces by those moves. A removed set slides on until it is clear of the assembly's
// box (beyond the sets removed that way before it) and stays there; a piece with no moves left
// after its removal is drawn see-through.
const OUT_GAP = 2;          // empty cells between the assembly's box and a removed set
const playback = {
  solution: null,           // the solution whose disassembly is loaded
  data: null,               // the answer of /api/disassembly
  frames: [],               // frames[k]: {piece: [layers, rows, columns]} after k moves
  done: [],                 // done[k]: the pieces removed for good after k moves
  step: 0, from: 0, fraction: 1, playing: false, timer: null, loading: null,
  pose() {                  // the offsets and faded pieces now (between two frames while moving)
    const a = this.frames[this.from] || {}, b = this.frames[this.step] || {};
    const t = this.fraction < 1 ? 0.5 - Math.cos(Math.PI * this.fraction) / 2 : 1;
    const offsets = {};
    for (const name of Object.keys(b)) offsets[name] = b[name].map((v, k) => a[name][k] + (v - a[name][k]) * t);
    return [offsets, this.done[t < 1 ? Math.min(this.from, this.step) : this.step] || new Set()];
  },
};
const DIRECTIONS = [["down", "up"], ["back", "forward"], ["left", "right"]];  // by axis (layer, row, column), - and +

// The frames of a move list: each move adds its ``by`` to its pieces; a removed set then slides
// on along its way until it is OUT_GAP cells past the assembly's box (and past the sets removed
// that way before it, so none lands on another).
function disassemblyFrames(data) {
  const names = Object.keys(data.pieces);
  const [lo, hi] = data.bounds;
  const frontier = {};      // "axis,sign" -> the next free cell coordinate along that way
  const frames = [Object.fromEntries(names.map((n) => [n, [0, 0, 0]]))];
  const done = [new Set()];
  const laterMoves = (k, name) => data.moves.slice(k + 1).some((m) => m.pieces.includes(name));
  data.moves.forEach((move, k) => {
    const now = Object.fromEntries(names.map((n) => [n, [...frames[k][n]]]));
    for (const name of move.pieces) move.by.forEach((v, axis) => { now[name][axis] += v; });
    const gone = new Set(done[k]);
    if (move.removed) {
      const axis = move.by.findIndex((v) => v !== 0), sign = Math.sign(move.by[axis]);
      const along = move.pieces.flatMap((name) => data.pieces[name].map((cell) => cell[axis] + now[name][axis]));
      const near = sign > 0 ? Math.min(...along) : Math.max(...along), far = sign > 0 ? Math.max(...along) : Math.min(...along);
      const way = `${axis},${sign}`;
      frontier[way] ??= sign > 0 ? hi[axis] + 1 + OUT_GAP : lo[axis] - 1 - OUT_GAP;
      const extra = sign > 0 ? Math.max(0, frontier[way] - near) : Math.min(0, frontier[way] - near);
      for (const name of move.pieces) now[name][axis] += extra;
      frontier[way] = far + extra + sign * 2;
      for (const name of move.pieces) if (!laterMoves(k, name)) gone.add(name);
    }
    frames.push(now);
    done.push(gone);
  });
  return { frames, done };
}

// The same for solids: each move slides its pieces by its ``vector`` (in the solids' space); a
// removed set slides on along it until OUT_GAP past every vertex of the assembly.
function solidFrames(data, meshes) {
  const names = Object.keys(data.pieces);
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const along = (which, at, u) => which.flatMap((name) => meshes[name].vertices.map((v) => dot(v, u) + dot(at[name], u)));
  const frontier = {};      // a way out (its unit vector) -> how far along it the next removed set starts
  const frames = [Object.fromEntries(names.map((n) => [n, [0, 0, 0]]))];
  const done = [new Set()];
  const laterMoves = (k, name) => data.moves.slice(k + 1).some((m) => m.pieces.includes(name));
  data.moves.forEach((move, k) => {
    const now = Object.fromEntries(names.map((n) => [n, [...frames[k][n]]]));
    for (const name of move.pieces) now[name] = now[name].map((v, i) => v + move.vector[i]);
    const gone = new Set(done[k]);
    if (move.removed) {
      const length = Math.hypot(...move.vector), u = move.vector.map((v) => v / length);
      const way = u.map((v) => v.toFixed(3)).join();
      const moved = along(move.pieces, now, u);
      const near = Math.min(...moved), far = Math.max(...moved);
      frontier[way] ??= Math.max(...along(names, frames[0], u)) + OUT_GAP;
      const extra = Math.max(0, frontier[way] - near);
      for (const name of move.pieces) now[name] = now[name].map((v, i) => v + u[i] * extra);
      frontier[way] = far + extra + 2;
      for (const name of move.pieces) if (!laterMoves(k, name)) gone.add(name);
    }
    frames.push(now);
    done.push(gone);
  });
  return { frames, done };
}

// A way in the solids' space, in words: up or down, else one of eight ways in the plane.
const PLANE_WAYS = ["right", "back right", "back", "back left", "left", "front left", "front", "front right"];
function wayOf([x, y, z]) {
  if (Math.abs(z) >= Math.hypot(x, y)) return z > 0 ? "up" : "down";
  return PLANE_WAYS[(Math.round(Math.atan2(y, x) / (Math.PI / 4)) + 8) % 8];
}

function moveText(move) {
  if (move.vector) {
    const units = Math.round(Math.hypot(...move.vector) * 100) / 100;
    return `${move.pieces.join(", ")} ${move.pieces.length > 1 ? "slide" : "slides"} ${wayOf(move.vector)} ${units}${move.removed ? " and out" : ""}`;
  }
  const axis = move.by.findIndex((v) => v !== 0), units = Math.abs(move.by[axis]);
  const way = DIRECTIONS[axis][move.by[axis] > 0 ? 1 : 0];
  return `${move.pieces.join(", ")} ${move.pieces.length > 1 ? "slide" : "slides"} ${way} ${units}${move.removed ? " and out" : ""}`;
}

function refreshPlayback() {
  const solution = currentSolution();
  const box = $("playback");
  box.hidden = !(solution && design.dim === 3 && (!design.lattice || design.slides !== false));
  if (box.hidden) return;
  const loaded = playback.solution === solution && playback.data;
  const total = loaded ? playback.data.moves.length : null;
  $("move-counter").textContent = loaded ? `move ${playback.step} of ${total}` : "move – of –";
  $("move-counter").dataset.step = loaded ? playback.step : "";
  $("move-counter").dataset.total = loaded ? total : "";
  $("play").textContent = playback.playing ? "❚❚ Pause" : loaded && playback.step === total ? "↺ Play again" : "▶ Play disassembly";
  $("reset").disabled = !loaded || (playback.step === 0 && !playback.playing);
  $("step-back").disabled = !loaded || playback.step === 0;
  $("step").disabled = loaded && playback.step === total;
  const shownMove = loaded && playback.step > 0 ? playback.data.moves[playback.step - 1] : null;
  $("move-text").textContent = !loaded ? "" : shownMove ? `${playback.step}. ${moveText(shownMove)}` : `the assembly · level ${playback.data.level}`;
  if (loaded) {
    $("sol-level").hidden = false;
    $("sol-level").textContent = `level ${playback.data.level} · ${total} move${total === 1 ? "" : "s"} to take it apart`;
  }
}

function stopPlayback() {
  clearTimeout(playback.timer);
  cancelAnimationFrame(playback.frame);
  const was = playback.solution;
  Object.assign(playback, { solution: null, data: null, frames: [], done: [], step: 0, from: 0, fraction: 1, playing: false });
  if (was && figureView) figureView.setOffsets({});
  if (was) refreshPlayback();
}

// The disassembly of the solution shown, from the server (once per solution).
async function loadPlayback() {
  const solution = currentSolution();
  if (!solution) return false;
  if (playback.solution === solution && playback.data) return true;
  const key = designKey();
  playback.loading ??= api("POST", "/api/disassembly", puzzleBody({ solution }));
  say("taking the solution apart…");
  let data;
  try { data = await playback.loading; }
  catch (error) { say(error.message, "error"); return false; }
  finally { playback.loading = null; }
  if (currentSolution() !== solution || key !== designKey()) { say(""); return false; }  // another solution meanwhile
  let solids = null;
  if (design.lattice) {  // solids: their vertices say how far a removed set must go
    try { solids = (await solidsOf(solution)).meshes; } catch (error) { say(error.message, "error"); return false; }
    if (currentSolution() !== solution || key !== designKey()) { say(""); return false; }
  }
  say("");
  stopPlayback();
  Object.assign(playback, { solution, data, ...(solids ? solidFrames(data, solids) : disassemblyFrames(data)) });
  mergeColours(data.colours);
  $("explode").value = 0;  // the pieces in place, every layer shown: the moves do the rest
  $("layer-cut").value = $("layer-cut").max;
  figureView.setExplode(0);
  figureView.setLayerCut(Infinity);
  // frame every place a piece goes, so the whole disassembly stays in sight
  if (solids) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const frame of playback.frames) for (const [name, by] of Object.entries(frame)) {
      for (const v of solids[name].vertices) v.forEach((x, k) => { lo[k] = Math.min(lo[k], x + by[k]); hi[k] = Math.max(hi[k], x + by[k]); });
    }
    figureView.frameBox(lo, hi);
  } else {
    const lo = [...data.bounds[0]], hi = [...data.bounds[1]];
    for (const frame of playback.frames) for (const [name, [dz, dr, dc]] of Object.entries(frame)) {
      for (const cell of data.pieces[name]) [cell[0] + dz, cell[1] + dr, cell[2] + dc].forEach((v, k) => { lo[k] = Math.min(lo[k], v); hi[k] = Math.max(hi[k], v); });
    }
    figureView.frameCells(lo, hi);
  }
  figureView.setOffsets(...playback.pose());
  refreshPlayback();
  return true;
}

// Slide from the frame shown to frame ``to``, then (playing) on to the next one.
function goTo(to, animate = true) {
  cancelAnimationFrame(playback.frame);
  clearTimeout(playback.timer);
  const from = playback.step;  // a slide under way is cut short: it starts again from where it was going
  playback.from = from; playback.step = to;
  const a = playback.frames[from], b = playback.frames[to];
  const distance = Math.max(0, ...Object.keys(b).map((n) => Math.max(...b[n].map((v, k) => Math.abs(v - a[n][k])))));
  const duration = animate ? Math.min(1800, 300 + 160 * distance) : 0;
  const began = performance.now();
  const tick = (time) => {
    playback.fraction = duration ? Math.min(1, (time - began) / duration) : 1;
    figureView.setOffsets(...playback.pose());
    if (playback.fraction < 1) { playback.frame = requestAnimationFrame(tick); return; }
    playback.from = to;
    refreshPlayback();
    if (playback.playing) {
      if (to < playback.frames.length - 1) playback.timer = setTimeout(() => goTo(to + 1), 350);
      else { playback.playing = false; refreshPlayback(); }
    }
  };
  refreshPlayback();
  if (duration) { playback.fraction = 0; playback.frame = requestAnimationFrame(tick); } else tick(began);
}

async function playPause() {
  if (playback.playing) {  // pause: finish the move under way, go no further
    playback.playing = false; clearTimeout(playback.timer); refreshPlayback(); return;
  }
  if (!(await loadPlayback())) return;
  if (playback.step === playback.frames.length - 1) goTo(0, false);  // played to the end: again from the assembly
  playback.playing = true;
  goTo(playback.step + 1);
}
async function stepBy(k) {
  if (!(await loadPlayback())) return;
  playback.playing = false;
  const to = Math.max(0, Math.min(playback.frames.length - 1, playback.step + k));
  if (to !== playback.step) goTo(to);
  else refreshPlayback();
}
function resetPlayback() {
  if (!playback.data) return;
  playback.playing = false;
  goTo(0, false);
}
// For the browser tests: the playback's state and where each piece's cubes are in the scene.
window.polyfitStudio = {
  playback: () => ({ step: playback.step, total: playback.data ? playback.data.moves.length : null, moving: playback.fraction < 1,
                     playing: playback.playing, level: playback.data?.level ?? null, bounds: playback.data?.bounds ?? null,
                     moves: playback.data?.moves ?? null, pieces: playback.data?.pieces ?? null,
                     cells: figureView ? figureView.cellsNow() : {}, boxes: figureView?.mode === "meshes" ? figureView.boxesNow() : {} }),
  solution: () => currentSolution(),
  colours: () => ({ ...colours }),
  figure: () => ({ mode: figureView?.mode ?? null, shows: typeof figureView?.figure === "string" ? "board" : figureView?.figure ? "solution" : null,
                   pieces: figureView ? figureView.pieces.map((node) => node.userData.name) : [] }),
};

// ---- live lint --------------------------------------------------------------------------
let lintSeq = 0, lintAbort = null, lintKey = null;
function chip(text, kind = "") { const s = document.createElement("span"); s.className = "chip " + kind; s.textContent = text; return s; }
const filePiecesInfo = () => (design.file ? `from ${design.file} (with its weights and groups): ${design.filePieces.join(" ")}` : "");
function piecesArea() {
  if (design.file) return null;  // the file's pieces: the server knows them
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
  $("piece-info").textContent = area === null ? filePiecesInfo() : `${area} cells of pieces`;
  const key = designKey();
  if (!count) {
    lintBox.replaceChildren(chip("draw cells to start"));
    reasons.replaceChildren(); marked = new Set(); drawGrid();
    lintKey = key; lintBox.classList.remove("stale"); reasons.classList.remove("stale");
    return;
  }
  let result, failure = null;
  lintAbort?.abort(); // the server stops a check nobody waits for
  lintAbort = new AbortController();
  try { result = await api("POST", "/api/check", puzzleBody({ forced_limit: 0 }), lintAbort.signal); }
  catch (error) { failure = error.message; }
  if (seq !== lintSeq || key !== designKey()) return; // the drawing changed meanwhile: a newer lint follows
  lintKey = key;
  lintBox.classList.remove("stale"); reasons.classList.remove("stale");
  if (result) mergeColours(result.colours);
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
// The verdict box: a result, and the design it is for (``key``). A result for an earlier design
// does not replace one for this design; it is said in a line instead.
function showVerdict(title, kind, facts, key) {
  if (key !== designKey() && verdictKey === designKey()) {
    say(`${title}: for an earlier design, so the verdict for this one stays`);
    return false;
  }
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
  verdictKey = key;
  refreshResults();
  return true;
}
async function check() {
  const key = designKey(), seq = ++verdictSeq;
  say("checking…");
  try {
    const r = await api("POST", "/api/check", puzzleBody());
    if (seq !== verdictSeq) return;
    mergeColours(r.colours);
    const facts = [];
    if (r.difficulty) facts.push(["difficulty", `${r.difficulty.score} (${fmt(r.difficulty.nodes_to_first)} nodes to the first)`]);
    if (r.forced) facts.push(["forced", `${r.forced.placements.length} placements in every solution`]);
    facts.push(["symmetries", r.symmetries], ["search", `${fmt(r.nodes)} nodes, ${r.seconds.toFixed(2)} s`]);
    for (const reason of r.reasons) facts.push(["why", reason.text.replace(/^no solution: /, "")]);
    say("");
    showVerdict({ unique: "Unique solution", multiple: "Several solutions", none: "No solution" }[r.verdict], r.verdict, facts, key);
  } catch (error) { if (seq === verdictSeq) say(error.message, "error"); }
}

// A time in seconds as a person reads it.
function duration(t) {
  if (t < 0.01) return t ? "under 0.01 s" : "0 s";
  if (t < 60) return `${t < 10 ? t.toFixed(2) : t.toFixed(1)} s`;
  for (const [unit, size] of [["years", 31557600], ["days", 86400], ["hours", 3600], ["min", 60]]) {
    if (t >= size) return `${(t / size).toPrecision(3)} ${unit}`;
  }
}
const known = (v) => v !== null && v !== undefined;
async function estimate() {
  const key = designKey(), seq = ++verdictSeq;
  say("estimating…");
  $("estimate").disabled = true;
  try {
    const r = await api("POST", "/api/estimate", puzzleBody());
    if (seq !== verdictSeq) return;
    const range = (lo, hi, show = fmt) => (r.exact ? "exact" : known(lo) && known(hi) ? `95% range ${show(lo)} to ${show(hi)}` : "range unknown");
    const facts = [
      ["nodes", known(r.nodes) ? `${fmt(r.nodes)} (${range(r.nodes_low, r.nodes_high)})` : "unknown"],
      ["solutions", known(r.solutions)
        ? `${fmt(r.solutions)} (${range(r.solutions_low, r.solutions_high)}) met by the search; symmetric copies are not searched`
        : "unknown: no probe met a solution, so the search may meet none or many (Count tells)"],
      ["time", !known(r.seconds) ? `unknown on ${r.backend}: no sample of the search finished in the time allowed to measure its speed` : `${duration(r.seconds)} (${range(r.seconds_low, r.seconds_high, duration)}) on ${r.backend}`],
      ["probes", r.exact ? `${fmt(r.probes)}, then counted exactly: the search was quicker than estimating it` : `${fmt(r.probes)} random paths down the search tree`],
    ];
    const title = !known(r.nodes) ? "Search size unknown" : r.exact ? `Exact: ${fmt(r.nodes)} nodes` : `About ${fmt(r.nodes)} nodes`;
    say("");
    if (showVerdict(title, "estimate", facts, key)) $("verdict").dataset.nodes = r.nodes;
  } catch (error) { if (seq === verdictSeq) say(error.message, "error"); }
  $("estimate").disabled = false;
}

let job = null;
async function count() {
  if (job) return;
  const key = designKey();
  say("");
  countKey = key;
  refreshResults();
  $("bar").style.width = "0";
  $("speed").textContent = "starting…";
  try { job = (await api("POST", "/api/count", puzzleBody())).job; }
  catch (error) { say(error.message, "error"); $("speed").textContent = ""; return; }
  $("cancel").disabled = false; $("count").disabled = true;
  const current = job;
  while (job === current) {
    let s;
    try { s = await api("GET", `/api/jobs/${current}`); } catch (error) { say(error.message, "error"); break; }
    if (job !== current) break;  // cancelled meanwhile
    const earlier = key !== designKey() ? " · counting the design as it was when Count was pressed" : "";
    $("bar").style.width = `${Math.round(s.progress * 100)}%`;
    if (s.state === "queued") $("speed").textContent = s.message + earlier;
    else $("speed").textContent = (s.nodes ? `${fmt(s.nodes)} nodes · ${fmt(s.nodes_per_second)} nodes/s · ${s.seconds.toFixed(1)} s` : `${s.seconds.toFixed(1)} s`) + earlier;
    if (s.state === "done") {
      const r = s.result;
      const facts = [["in all", fmt(r.total)]];
      if (design.dim === 3) facts.push(["up to rotation", fmt(r.distinct_rotations)]);
      facts.push(["symmetries", r.symmetries], ["search", `${fmt(r.nodes)} nodes, ${r.seconds.toFixed(2)} s`]);
      let title = `${fmt(r.distinct)} distinct solution${r.distinct === 1 ? "" : "s"}`;
      let found = r.distinct;
      if (r.levels) {  // disassemble: the assemblies that come apart, by level
        found = r.disassemblable;
        title = `${fmt(r.disassemblable)} of ${fmt(r.assemblies)} assembl${r.assemblies === 1 ? "y comes" : "ies come"} apart`;
        facts.unshift(["levels", Object.entries(r.levels).map(([level, n]) => `${level}: ${fmt(n)}`).join(", ") || "none"]);
        if (r.unknown) facts.push(["unknown", `${fmt(r.unknown)} (the search met its cap on states)`]);
      }
      if (showVerdict(title, found === 1 ? "unique" : found ? "multiple" : "none", facts, key)) $("verdict").dataset.distinct = found;
      $("speed").textContent = `${fmt(r.nodes)} nodes in ${r.seconds.toFixed(2)} s` + (key !== designKey() ? " · for an earlier design" : "");
      break;
    }
    if (s.state !== "running" && s.state !== "queued") { if (s.state === "error") say(s.error, "error"); break; }
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
  countKey = null;
  refreshResults();
  $("bar").style.width = "0";
  $("cancel").disabled = true; $("count").disabled = false;
  say("count cancelled");
}

// ---- solutions: drawn on the board itself ------------------------------------------------
let solveSeq = 0;
async function solve() {
  const key = designKey(), seq = ++solveSeq;
  say("finding solutions…");
  try {
    const found = await api("POST", "/api/solutions", puzzleBody({ limit: 200 }));
    if (seq !== solveSeq) return;
    solutions = { ...found, key };
    solidsCache.clear();  // the solids of the solutions shown before
    shown = 0;
    showing = true;
    mergeColours(found.colours);
    if (key !== designKey()) say("these solutions are for an earlier design: the drawing changed while they were found");
    else say(found.solutions.length ? "" : found.disassemblies ? "no solution comes apart" : "no solution", found.solutions.length ? "" : "error");
    showSolution();
  } catch (error) { if (seq === solveSeq) say(error.message, "error"); }
}
function showSolution() {
  refreshResults();
  drawGrid();
  showFigure();
}
function hideSolution() {
  showing = false;
  showSolution();
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
  const solution = solutions?.key === designKey() ? solutions.solutions[shown] : null;
  if (!solution) { say("show a solution of this design first", "error"); return; }
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
async function openFile(name, problem = 1) {
  if (!name) return;
  try {
    const file = await api("GET", `${filePath(name)}${problem > 1 ? `?problem=${problem}` : ""}`);
    remember();
    readText(file.text, file.dim);
    design.folder = name.includes("/") ? name.slice(0, name.lastIndexOf("/")) : "";
    design.custom = "";
    design.file = file.pieces?.length ? name : "";  // a BurrTools file: its pieces, weights and groups
    design.filePieces = file.pieces || [];
    design.problem = file.problem || 1;
    design.boards = file.boards || [];
    design.boardsOf = design.boards.length ? name : "";
    design.slides = file.slides !== false;  // spheres and the fine grids: no disassembly to play
    if (design.file) design.pieces = "";
    $("file-name").value = name;
    say(design.boards.length ? `opened ${name}, ${design.boards[design.problem - 1]} (${design.problem} of ${design.boards.length})`
                             : `opened ${name}`, "ok");
    changed();
  } catch (error) { say(error.message, "error"); }
}
// The boards of a file that holds several (BurrTools problems, Soma figures): one is drawn.
function showBoards() {
  const select = $("problem-list");
  const names = design.boardsOf ? design.boards : [];
  select.hidden = names.length < 2;
  select.replaceChildren(...names.map((n, k) => new Option(`${k + 1}. ${n}`, String(k + 1))));
  if (names.length > 1) select.value = String(design.problem);
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
  if (design.file) {  // the drawing with the file's pieces, their weights and groups: a BurrTools file
    try {
      const body = { text: boardText(), file: design.file, problem: design.problem, dim: design.dim };
      let saved = true;
      try { await api("PUT", filePath(name), body); } catch (error) {
        if (!/exists/.test(error.message)) throw error;
        saved = confirm(`${name} exists. Replace it?`);
        if (saved) await api("PUT", filePath(name), { ...body, overwrite: true });
      }
      say(saved ? `saved ${name}` : "not saved", saved ? "ok" : "");
    } catch (error) { say(error.message, "error"); }
    listFiles();
    return;
  }
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
  $("pieces").onchange = () => { design.pieces = $("pieces").value.trim(); if (design.pieces) leaveFile(); changed(); };
  $("mirror").onchange = () => { design.mirror = $("mirror").checked; changed(); };
  $("disassemble").onchange = () => { showSolution(); clearTimeout(lintTimer); lintTimer = setTimeout(lint, 300); };  // the lint's answer is for the key with the box
  $("custom-pieces").oninput = () => { design.custom = $("custom-pieces").value; clearTimeout(lintTimer); lintTimer = setTimeout(() => changed(), 400); };
  $("board-name").onchange = () => { design.name = $("board-name").value.trim(); changed(); };
  $("apply-text").onclick = applyText;
  $("check").onclick = check;
  $("count").onclick = count;
  $("estimate").onclick = estimate;
  $("cancel").onclick = cancel;
  $("solve").onclick = solve;
  $("prev").onclick = () => { if (solutions?.solutions.length) { shown = (shown + solutions.solutions.length - 1) % solutions.solutions.length; showing = true; showSolution(); } };
  $("next").onclick = () => { if (solutions?.solutions.length) { shown = (shown + 1) % solutions.solutions.length; showing = true; showSolution(); } };
  $("hide-solution").onclick = hideSolution;
  $("play").onclick = playPause;
  $("step").onclick = () => stepBy(1);
  $("step-back").onclick = () => stepBy(-1);
  $("reset").onclick = resetPlayback;
  $("error-close").onclick = () => say("");
  $("explode").oninput = () => showFigure();
  $("layer-cut").oninput = () => showFigure();
  $("export-png").onclick = () => exportSolution("png");
  $("export-glb").onclick = () => exportSolution("glb");
  $("export-stl").onclick = exportKit;
  $("file-list").onchange = () => openFile($("file-list").value);
  $("problem-list").onchange = () => openFile(design.boardsOf, Number($("problem-list").value));
  $("save").onclick = save;
  $("share").onclick = async () => {
    try { await navigator.clipboard.writeText(location.href); say("link copied", "ok"); }
    catch { say("the link is in the address bar", "ok"); }
  };
  new ResizeObserver(() => drawGrid()).observe(grid.parentElement);
  // a count nobody will watch any more is stopped when the page goes
  window.addEventListener("pagehide", () => { if (job) fetch(`/api/jobs/${job}`, { method: "DELETE", keepalive: true }); });
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
