// The page: draws what the server says and sends what the player does.  The
// rules live on the server: legal moves, notation, FEN and PDN come from it.
import { BoardView } from "./board.js";

const $ = (id) => document.getElementById(id);
const view = new BoardView($("board"));
const matchView = new BoardView($("m-board"));
let match = null;          // the last match message
let ws = null;
let state = null;          // the server's last state message
let pick = null;           // {start, clicks: []} while a move is being entered
let drag = null;           // {from, at, moved}
let editing = null;        // {pieces, turn} in the board editor
let analysis = null;       // the last analysis message of the shown position
let pendingMove = null;    // performance.now() of the last move sent (round trip)
let engineKinds = {};      // engine name -> "builtin", "hub" or "dxp"
let pendingAnalyse = null; // the Analyse tick sent, until a state has it
let preview = null;        // {line, upto, pv, pieces, lastmove} while a line's position is shown
let orientedFor = null;    // the variant and side the board was last turned for
// this tab's game, kept across a reload (sessionStorage is the tab's own)
const GAME_KEY = "draughts-game";
let restore = null;        // the saved game, until the server has replayed it
try { restore = JSON.parse(sessionStorage.getItem(GAME_KEY) || "null"); } catch { restore = null; }
let restoring = 0;         // states still to come from the replay before saving again
window.draughtsTimes = []; // round trips (ms) of moves, read by the benchmarks

// --- the connection ------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws`);
  ws.onopen = () => status("Connected");
  ws.onclose = () => { status("Disconnected from the server — reload the page to reconnect"); };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else toast("Not connected to the server");
}

function status(text) { $("status").textContent = text; }

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  t.onclick = () => { t.hidden = true; };
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 5000);
}

function receive(msg) {
  switch (msg.type) {
    case "engines": return setLists(msg);
    case "state": return setState(msg);
    case "analysis": return setAnalysis(msg);
    case "error": pendingAnalyse = null;
      if (restoring) { restoring = 0; msg.message = `The saved game could not be restored: ${msg.message}`; }
      return toast(msg.message);
    case "preview": return setPreview(msg);
    case "games": return chooseGame(msg);
    case "pdn": return download(msg.filename, msg.text);
    case "match": return setMatch(msg);
    case "match_lines": return setMatchLines(msg);
    case "setup": editing && (editing.fen = msg.fen, $("edit-fen").textContent = msg.fen); return;
  }
}

function setLists(msg) {
  $("variant").replaceChildren(...msg.variants.map((v) => {
    const o = new Option(`${v.name} (${v.size}×${v.size})`, v.name);
    o.dataset.size = v.size;
    return o;
  }));
  engineKinds = Object.fromEntries(msg.engines.map((e) => [e.name, e.proto]));
  const names = msg.engines.map((e) => [e.proto === "builtin" ? `${e.name} (built in)` : `${e.name} (${e.proto})`, e.name]);
  for (const id of ["engine", "m-engine1", "m-engine2"]) $(id).replaceChildren(...names.map(([t, v]) => new Option(t, v)));
  $("m-openings").append(...msg.decks.map((d) => new Option(`${d.name} (${d.variant})`, d.name)));
  if (msg.watch) { $("m-follow").hidden = false; $("m-follow").textContent = `Follow ${msg.watch}`; }
  $("multipv").max = msg.max_multipv;
}

// --- the state -------------------------------------------------------------------
function setState(s) {
  let replaying = false;
  if (restore) { replaying = startRestore(restore, s); restore = null; }
  if (!replaying) {
    if (restoring) restoring--;
    if (!restoring) saveGame(s);
  }
  const variantChanged = !state || state.variant.name !== s.variant.name || state.variant.house !== s.variant.house;
  const posChanged = !state || state.fen !== s.fen || state.cursor !== s.cursor;
  state = s;
  // for the tests and measurements: the states drawn so far, the last, and a hook
  window.draughtsSeen = (window.draughtsSeen || 0) + 1;
  window.draughtsState = s;
  if (window.draughtsOnState) window.draughtsOnState(s);
  if (variantChanged) {
    view.setVariant(s.variant);
    // the game's variant (the fields keep a choice made for the next new game otherwise)
    $("variant").value = s.variant.name;
    $("house").checked = s.variant.house;
  }
  if (posChanged) { pick = null; analysis = null; endPreview(false); }
  // the board is turned so that the player's men start at the bottom
  const orient = `${s.variant.name}/${s.side}`;
  if (orient !== orientedFor) {
    orientedFor = orient;
    view.flipped = s.side !== "both" && s.side === s.variant.top;
  }
  // analysis off: the last lines go (the engine's thinking while it plays still shows)
  if (!s.analysing && !s.thinking) analysis = null;
  $("analysis-box").classList.toggle("off", !s.analysing);
  showAnalysis();
  const note = $("note");
  note.hidden = !s.loaded;
  if (s.loaded) {
    note.textContent = `Loaded game: you play both sides now ("You play" is "Both sides"). ` +
      `It is shown at its last move${s.lastmove ? "" : " (it has none)"}; « goes to its start.`;
  }
  $("side").value = s.side;
  $("engine").value = s.engine;
  $("level").value = s.level;
  // a level is our engine's; the others play at their own strength
  $("level").disabled = engineKinds[s.engine] !== "builtin";
  $("movetime").value = s.movetime;
  // a state sent before the server had the tick does not untick it
  if (pendingAnalyse === null || pendingAnalyse === s.analysing) { pendingAnalyse = null; $("analyse").checked = s.analysing; }
  $("multipv").value = s.multipv;
  if (document.activeElement !== $("fen")) $("fen").value = s.fen;
  if (!editing && !preview) draw();
  moveList();
  graph();
  const turn = s.turn[0].toUpperCase() + s.turn.slice(1);
  let text = `${s.variant.name}${s.variant.house ? " (house rule)" : ""}: `;
  if (s.result !== "*" && s.cursor === s.moves.length) text += "game over";
  else if (s.thinking) text += `${s.engine} is thinking…`;
  else text += `${turn} to move`;
  status(text);
  $("result").textContent = s.result !== "*" ? `${s.result} — ${s.reason}` : "";
  if (pendingMove !== null) {
    requestAnimationFrame(() => {
      window.draughtsTimes.push(performance.now() - pendingMove);
      pendingMove = null;
    });
  }
}

// the tab's game, written at every state and replayed by the server after a reload
function saveGame(s) {
  const game = { variant: s.variant.name, house: s.variant.house, fen: s.start_fen, moves: s.moves,
                 cursor: s.cursor, side: s.side, engine: s.engine, level: s.level, movetime: s.movetime };
  try { sessionStorage.setItem(GAME_KEY, JSON.stringify(game)); } catch { /* storage full or off */ }
}

// the server's first state is its new game: the saved one is replayed instead
// (the first state is drawn meanwhile); false where there is nothing to replay
function startRestore(g, s) {
  if (typeof g !== "object" || !Array.isArray(g.moves)) return false;
  const same = g.variant === s.variant.name && g.house === s.variant.house && g.fen === s.start_fen &&
    g.moves.length === 0 && g.side === s.side && g.engine === s.engine && g.level === s.level &&
    g.movetime === s.movetime;
  if (same) return false;
  const settings = { type: "settings", level: g.level, movetime: g.movetime, side: g.side };
  if (g.engine in engineKinds) settings.engine = g.engine;
  restoring = 2;                 // the answers to these two messages
  send(settings);
  send({ type: "new", variant: g.variant, house: g.house, fen: g.fen, side: g.side,
         moves: g.moves, cursor: g.cursor });
  return true;
}

function movesFrom(start) { return state.legal.filter((m) => m.start === start); }

function draw() {
  if (!state) return;
  if (preview) { view.draw(preview.pieces, { last: ends(preview.lastmove) }); return; }
  const marks = { last: state.lastmove ? [state.lastmove[0], state.lastmove[state.lastmove.length - 1]] : [] };
  if (pick) {
    marks.selected = pick.start;
    marks.targets = [...new Set(candidates().flatMap((m) => {
      const next = m.path[pick.clicks.length + 1];
      return next === m.end ? [m.end] : [next, m.end];
    }))];
  }
  if (drag && drag.moved) { marks.dragFrom = drag.from; marks.dragAt = drag.at; }
  view.draw(state.pieces, marks);
}

// the legal moves that fit the squares clicked so far
function candidates() {
  const k = pick.clicks.length;
  return movesFrom(pick.start).filter((m) => pick.clicks.every((sq, i) => m.path[i + 1] === sq) && m.path.length > k + 1);
}

// --- entering a move ---------------------------------------------------------
function ends(path) { return path ? [path[0], path[path.length - 1]] : []; }

function clickSquare(sq) {
  if (editing) return editSquare(sq);
  if (preview) return endPreview();
  if (!state || sq == null) return;
  if (!pick) {
    if (movesFrom(sq).length) { pick = { start: sq, clicks: [] }; draw(); }
    else if (state.pieces[sq]) refuse(state.legal.length ? "That piece has no legal move" : "Not your move");
    return;
  }
  if (sq === pick.start && pick.clicks.length === 0) { pick = null; draw(); return; }
  const cands = candidates();
  const k = pick.clicks.length;
  const along = cands.filter((m) => m.path[k + 1] === sq);
  if (along.length) {
    const done = along.filter((m) => m.path.length === k + 2);
    if (done.length === along.length) return choose(done);
    pick.clicks.push(sq);
    draw();
    return;
  }
  const ends = cands.filter((m) => m.end === sq);
  if (ends.length) return choose(ends);
  if (movesFrom(sq).length && k === 0) { pick = { start: sq, clicks: [] }; draw(); return; }
  refuse("Not a legal move");
}

function refuse(text) {
  pick = null;
  draw();
  toast(text);
}

function choose(moves) {
  if (moves.length === 1) return play(moves[0]);
  const list = $("choose-list");
  list.replaceChildren(...moves.map((m) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    b.textContent = `${m.text}  (takes ${m.captured.map((c) => view.labels.get(c)).join(", ")})`;
    b.onclick = () => { $("choose").close(); play(m); };
    return b;
  }));
  $("choose-title").textContent = "Two captures share this start and end: which one?";
  $("choose").showModal();
}

function play(m) {
  pick = null;
  pendingMove = performance.now();
  send({ type: "move", start: m.start, end: m.end, captured: m.captured });
}

// pointer: a click, or a drag from a piece to a square
const wrap = $("board-wrap");
wrap.addEventListener("pointerdown", (ev) => {
  if (!state) return;
  const sq = view.squareAt(ev.clientX, ev.clientY);
  if (!editing && !preview && sq != null && movesFrom(sq).length && (!pick || pick.clicks.length === 0) && sq !== pick?.start) {
    pick = { start: sq, clicks: [] };
    drag = { from: sq, at: view.toBoard(ev.clientX, ev.clientY), moved: false, x: ev.clientX, y: ev.clientY, fresh: true };
    wrap.setPointerCapture(ev.pointerId);
    draw();
    return;
  }
  drag = null;
  clickSquare(sq);
});
wrap.addEventListener("pointermove", (ev) => {
  if (!drag) return;
  if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 6) drag.moved = true;
  drag.at = view.toBoard(ev.clientX, ev.clientY);
  if (drag.moved) draw();
});
wrap.addEventListener("pointerup", (ev) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  const sq = view.squareAt(ev.clientX, ev.clientY);
  if (d.moved && sq != null && sq !== d.from) clickSquare(sq);
  else draw();
});

// --- the move list, the analysis and the graph ---------------------------------
function moveList() {
  const ol = $("moves");
  ol.replaceChildren();
  const s = state;
  const secondFirst = s.first !== s.variant.first;   // the game starts with the second player
  const offset = secondFirst ? 1 : 0;
  let li = null;
  for (let ply = -offset; ply < s.moves.length; ply++) {
    const slot = ply + offset;
    if (slot % 2 === 0) {
      li = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = `${slot / 2 + 1}.`;
      li.appendChild(num);
      ol.appendChild(li);
    }
    const span = document.createElement("span");
    span.className = "mv";
    if (ply >= 0) {
      span.textContent = s.moves[ply];
      span.dataset.ply = ply + 1;
      if (ply + 1 === s.cursor) span.classList.add("current");
      span.onclick = () => send({ type: "goto", ply: ply + 1 });
    } else span.textContent = "…";
    li.appendChild(span);
  }
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function fmtScore(line) {
  if (line.win_in != null) return line.win_in > 0 ? `win ${line.win_in}` : `loss ${-line.win_in}`;
  return (line.score > 0 ? "+" : "") + line.score.toFixed(2);
}

function setAnalysis(msg) {
  if (!state || msg.ply !== state.cursor || (!state.analysing && !state.thinking)) return;
  analysis = msg;
  showAnalysis();
}

function showAnalysis() {
  const a = analysis;
  if (!a) {
    $("search-info").textContent = state && !state.analysing ? "Analysis off" : "depth – · score – · – nodes/s";
    $("lines").replaceChildren();
    return;
  }
  const best = a.lines[0];
  $("search-info").textContent = `depth ${a.depth} · score ${best ? fmtScore(best) : "–"} · ${Math.round(a.nps).toLocaleString("en")} nodes/s · ${a.nodes.toLocaleString("en")} nodes`;
  $("lines").replaceChildren(...a.lines.map((line, i) => {
    const li = document.createElement("li");
    const sc = document.createElement("span");
    sc.className = "score";
    sc.textContent = fmtScore(line);
    sc.title = "Show the position at the end of this line";
    sc.onclick = () => showLine(i, line.pv.length, line.pv);
    li.append(sc);
    line.pv.forEach((mv, k) => {
      // the move number before a move, as Board.variation_str writes it ("1." or "1...")
      const number = line.numbers && line.numbers[k];
      if (number) {
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = number;
        li.append(" ", num);
      }
      const sp = document.createElement("span");
      sp.className = "pv";
      sp.textContent = mv;
      sp.dataset.upto = k + 1;
      if (preview && preview.line === i && preview.upto === k + 1) sp.classList.add("shown");
      sp.onclick = () => showLine(i, k + 1, line.pv);
      li.append(" ", sp);
    });
    return li;
  }));
}

// --- a line's position on the board (the game is left as it is) ------------------
function showLine(line, upto, pv) {
  if (!state || editing || upto < 1) return;
  preview = { line, upto, pv: pv.slice(), ply: state.cursor, pieces: null };
  send({ type: "preview", moves: pv.slice(0, upto) });
}

function setPreview(msg) {
  if (!preview || !state || msg.ply !== state.cursor || msg.ply !== preview.ply) return;
  if (msg.moves.length !== preview.upto) return;          // an older step's answer
  Object.assign(preview, { pieces: msg.pieces, lastmove: msg.lastmove, fen: msg.fen });
  pick = null;
  $("board-area").classList.add("previewing");
  $("preview-bar").hidden = false;
  $("preview-text").textContent = `Line ${preview.line + 1} after ${msg.moves.join(" ")}`;
  draw();
  showAnalysis();
}

function endPreview(redraw = true) {
  if (!preview) return;
  preview = null;
  $("board-area").classList.remove("previewing");
  $("preview-bar").hidden = true;
  if (redraw) { draw(); showAnalysis(); }
}
$("preview-back").onclick = () => endPreview();

function graph() {
  const g = $("graph");
  const NS = "http://www.w3.org/2000/svg";
  g.replaceChildren();
  const n = Math.max(state.moves.length, 1);
  const x = (p) => (p / n) * 300;
  const y = (s) => 45 - Math.max(-5, Math.min(5, s)) * 8.5;
  const mk = (name, attrs) => { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); g.appendChild(e); return e; };
  mk("line", { x1: 0, x2: 300, y1: 45, y2: 45, stroke: "#888", "stroke-width": 0.5 });
  mk("line", { x1: x(state.cursor), x2: x(state.cursor), y1: 0, y2: 90, stroke: "#d9a400", "stroke-width": 1.5 });
  const pts = state.scores.map(([p, s]) => `${x(p)},${y(s)}`).join(" ");
  if (pts) mk("polyline", { points: pts, fill: "none", stroke: "currentColor", "stroke-width": 1.5, class: "curve" });
  // the x axis in move numbers: from the start to the game's last move
  const offset = state.first !== state.variant.first ? 1 : 0;
  $("graph-x0").textContent = "start";
  $("graph-xn").textContent = state.moves.length ? String(Math.floor((state.moves.length - 1 + offset) / 2) + 1) : "–";
}

$("graph").addEventListener("click", (ev) => {
  if (!state) return;
  const box = $("graph").getBoundingClientRect();
  const ply = Math.round((ev.clientX - box.left) / box.width * Math.max(state.moves.length, 1));
  send({ type: "goto", ply: Math.max(0, Math.min(state.moves.length, ply)) });
});

// --- the controls ------------------------------------------------------------------
function goto(ply) { if (state) send({ type: "goto", ply: Math.max(0, Math.min(state.moves.length, ply)) }); }
$("first").onclick = () => goto(0);
$("prev").onclick = () => goto(state.cursor - 1);
$("next").onclick = () => goto(state.cursor + 1);
$("last").onclick = () => goto(state.moves.length);
$("undo").onclick = () => send({ type: "undo" });
$("flip").onclick = () => { view.flipped = !view.flipped; draw(); };
function newGame() { send({ type: "new", variant: $("variant").value, house: $("house").checked, side: $("side").value }); }
$("new").onclick = newGame;
// another variant (or the house rule) starts its game at once
$("variant").addEventListener("change", () => {
  if ($("variant").selectedOptions[0]?.dataset.size !== "8") $("house").checked = false;
  newGame();
});
$("house").addEventListener("change", newGame);
function settings() {
  send({ type: "settings", engine: $("engine").value, level: Number($("level").value),
         movetime: Number($("movetime").value), side: $("side").value });
}
for (const id of ["engine", "level", "movetime", "side"]) $(id).addEventListener("change", settings);
$("analyse").addEventListener("change", () => {
  pendingAnalyse = $("analyse").checked;
  send({ type: "analyse", on: $("analyse").checked, multipv: Number($("multipv").value) });
});
$("multipv").addEventListener("change", () => send({ type: "analyse", on: $("analyse").checked, multipv: Number($("multipv").value) }));
$("fen-form").addEventListener("submit", (ev) => { ev.preventDefault(); send({ type: "set_fen", fen: $("fen").value }); $("fen").blur(); });
$("save").onclick = () => send({ type: "save_pdn" });
$("pdn-file").addEventListener("change", async () => {
  const file = $("pdn-file").files[0];
  if (!file) return;
  if (file.size > (1 << 20)) { toast("The PDN file is larger than 1024 KiB"); $("pdn-file").value = ""; return; }
  send({ type: "load_pdn", text: await file.text() });
  $("pdn-file").value = "";
});
$("theme").onclick = () => {
  const root = document.documentElement;
  const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  root.dataset.theme = dark ? "light" : "dark";
  localStorage.setItem("draughts-theme", root.dataset.theme);
};
const savedTheme = localStorage.getItem("draughts-theme");
if (savedTheme) document.documentElement.dataset.theme = savedTheme;

document.addEventListener("keydown", (ev) => {
  if (!state || ev.target.closest("input, select, textarea") || $("choose").open) return;
  if (preview && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) {
    // step along the line shown
    ev.preventDefault();
    const upto = preview.upto + (ev.key === "ArrowRight" ? 1 : -1);
    if (upto < 1) endPreview();
    else if (upto <= preview.pv.length) showLine(preview.line, upto, preview.pv);
    return;
  }
  const keys = { ArrowLeft: state.cursor - 1, ArrowRight: state.cursor + 1, Home: 0, End: state.moves.length };
  if (ev.key in keys) { ev.preventDefault(); goto(keys[ev.key]); }
  else if (ev.key === "Escape" && preview) endPreview();
  else if (ev.key === "Escape" && pick) { pick = null; draw(); }
});

function chooseGame(msg) {
  const list = $("choose-list");
  list.replaceChildren(...msg.games.map((g) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    b.textContent = `${g.index + 1}. ${g.white} – ${g.black}  ${g.result}  (${g.event}, ${g.date}, ${g.variant}, ${g.plies} plies)`;
    b.onclick = () => { $("choose").close(); send({ type: "pick_game", index: g.index }); };
    return b;
  }));
  $("choose-title").textContent = `${msg.games.length} games in the file${msg.skipped ? ` (${msg.skipped} unreadable left out)` : ""}: pick one`;
  $("choose").showModal();
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-pdn" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// --- the board editor ---------------------------------------------------------------
$("edit").onclick = () => {
  if (!state) return;
  editing = { pieces: { ...state.pieces }, turn: state.turn, fen: state.fen };
  pick = null;
  endPreview(false);
  $("board-area").classList.add("editing");
  $("mode-label").hidden = false;
  $("edit-turn").value = state.turn;
  $("edit-fen").textContent = state.fen;
  $("editor").hidden = false;
  $("nav").hidden = true;
  view.draw(editing.pieces);
};
function editSquare(sq) {
  if (sq == null) return;
  const kind = document.querySelector('input[name="piece"]:checked').value;
  if (kind && editing.pieces[sq] !== kind) editing.pieces[sq] = kind;
  else delete editing.pieces[sq];
  view.draw(editing.pieces);
  send({ type: "setup", pieces: editing.pieces, turn: editing.turn });
}
$("edit-turn").addEventListener("change", () => { editing.turn = $("edit-turn").value; send({ type: "setup", pieces: editing.pieces, turn: editing.turn }); });
$("edit-clear").onclick = () => { editing.pieces = {}; view.draw(editing.pieces); send({ type: "setup", pieces: {}, turn: editing.turn }); };
function endEditing() {
  editing = null;
  $("editor").hidden = true;
  $("nav").hidden = false;
  $("board-area").classList.remove("editing");
  $("mode-label").hidden = true;
  draw();
}
$("edit-cancel").onclick = endEditing;
$("edit-done").onclick = () => {
  const fen = editing.fen;
  endEditing();
  send({ type: "set_fen", fen });
};

// --- matches ------------------------------------------------------------------------
for (const n of ["1", "2"]) {
  $(`m-engine${n}`).addEventListener("change", () => { $(`m-level${n}`).disabled = engineKinds[$(`m-engine${n}`).value] !== "builtin"; });
}
$("m-start").onclick = () => send({
  type: "match_start", limit: $("m-limit").value, games: Number($("m-games").value),
  repeat: $("m-repeat").checked, openings: $("m-openings").value,
  engines: [{ name: $("m-engine1").value, level: Number($("m-level1").value) },
            { name: $("m-engine2").value, level: Number($("m-level2").value) }],
});
$("m-stop").onclick = () => send({ type: "match_stop" });
$("m-follow").onclick = () => send({ type: "match_follow" });

let clockBase = null;      // {side, left, at} of the running clock
function fmtClock(t) {
  if (t == null) return "–";
  const s = Math.max(0, t);
  return s >= 60 ? `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}` : s.toFixed(1);
}
function showClocks() {
  const cur = match && match.current;
  if (!cur) return;
  for (const side of ["white", "black"]) {
    let t = cur.clocks[side];
    if (clockBase && clockBase.side === side) t = clockBase.left - (performance.now() - clockBase.at) / 1000;
    const el = $(`m-clock-${side}`);
    el.textContent = `${side === "white" ? "White" : "Black"} ${cur[side]}: ${fmtClock(t)}`;
    el.classList.toggle("running", cur.running === side);
  }
}
setInterval(() => { if (clockBase) showClocks(); }, 100);

function setMatch(msg) {
  match = msg;
  $("m-view").hidden = false;
  $("match-box").open = true;
  const running = msg.status === "running" && msg.kind === "started";
  $("m-stop").disabled = !running;
  $("m-start").disabled = running;
  $("m-score").textContent = `${msg.score_line || msg.names.join(" vs ")} — ${msg.played} of ${msg.total} games, ${msg.status}${msg.file ? ` (${msg.file})` : ""}`;
  // no Elo figure until its interval means something (as the server decides)
  $("m-elo").textContent = msg.elo_line || (msg.played ? "Elo difference: not yet (too few decisive games)" : "");
  const cur = msg.current;
  if (cur) {
    const v = matchView.variant;
    if (!v || v.name !== msg.variant.name || v.house !== msg.variant.house) matchView.setVariant(msg.variant);
    const last = cur.lastmove ? [cur.lastmove[0], cur.lastmove[cur.lastmove.length - 1]] : [];
    matchView.draw(cur.pieces, { last });
    clockBase = cur.running && cur.clocks[cur.running] != null ? { side: cur.running, left: cur.clocks[cur.running], at: performance.now() } : null;
    showClocks();
    for (const side of ["white", "black"]) showMatchLine(side, cur.lines[side]);
  }
  $("m-list").replaceChildren(...msg.games.map((g) => {
    const li = document.createElement("li");
    li.value = g.index + 1;
    li.append(`${g.first} – ${g.second}: ${g.result} {${g.reason}} (${g.plies} plies)`);
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "Open";
    b.title = "Open the game in the analysis board";
    b.onclick = () => send({ type: "match_open", index: g.index });
    li.append(b);
    return li;
  }));
}

function showMatchLine(side, line) {
  const cur = match.current;
  $(`m-line-${side}`).textContent = line
    ? `${cur[side]}: depth ${line.depth} ${fmtScore(line)} ${Math.round(line.nps).toLocaleString("en")} n/s  ${line.pv.join(" ")}`
    : `${cur[side]}: –`;
}

function setMatchLines(msg) {
  if (!match || !match.current || match.current.game !== msg.game) return;
  match.current.lines[msg.side] = msg;
  showMatchLine(msg.side, msg);
}

connect();
