// Analyse: a board where you play both sides, with the solver's exact value of every move (as Pascal Pons' web
// solver shows it), the engine's iterative deepening live (its principal variation drawn on the board), and on
// gomoku boards the threat-space search's findings (VCF, VCT).

import { clearMessage, getJSON, openStream, showMessage } from "./api.js";
import { drawBoard, formatMoves } from "./board.js";
import { describeGame, gameForm, gameParams, localGame, setHashParams } from "./gameform.js";

const SOLVER_MS = 15000;  // the exact values' budget on this page (ms)

/** 1st, 2nd, 3rd, 4th ... */
function ordinal(n) { const s = ["th", "st", "nd", "rd"], v = n % 100; return n + (s[(v - 20) % 10] || s[v] || s[0]); }

/** How a solver score reads: "+3" wins, "-2" loses, "0" draws; with the distance in the side's own moves. */
export function describeScore(score, distance) {
  if (score === null || score === undefined) return { text: "", kind: "" };
  if (score === 0) return { text: "0", kind: "draw", title: "draw" };
  const moves = Math.ceil(distance / 2);
  const text = score > 0 ? `+${score}` : String(score);
  return { text, kind: score > 0 ? "win" : "loss", title: score > 0 ? `wins with its ${ordinal(moves)} move from here` : `loses: the opponent wins with its ${ordinal(moves)} move` };
}

export async function analyseView(root, params) {
  root.innerHTML = `
    <section class="controls"><form class="game-form"></form>
      <label>Moves <input id="moves" size="40" placeholder="e.g. 4453 (Connect-4) or h8 h9 (m,n,k)"></label> <button id="load">Load</button>
      <button id="undo">Undo</button> <button id="clear">Clear</button></section>
    <div class="analysis-layout">
      <div><div class="board-wrap" id="board"></div><p id="status" class="status"></p></div>
      <div class="panels">
        <section id="solver-panel"><h2>Exact values</h2><p id="solver-status" class="info"></p>
          <table class="values"><tbody><tr id="value-moves"></tr><tr id="value-scores"></tr><tr id="value-distances"></tr></tbody></table></section>
        <section id="engine-panel"><h2>Engine</h2>
          <label><input type="checkbox" id="live" checked> live</label>
          <label>budget <select id="budget"><option value="3000">3 s</option><option value="10000" selected>10 s</option><option value="30000">30 s</option></select></label>
          <label><input type="checkbox" id="show-pv" checked> line on the board</label>
          <p id="engine-status" class="info"></p>
          <table class="iterations"><thead><tr><th>depth</th><th>score</th><th>nodes</th><th>nodes/s</th><th>time</th><th>line</th></tr></thead><tbody id="iterations"></tbody></table></section>
        <section id="threat-panel"><h2>Threats</h2><p id="threats" class="info"></p></section>
      </div></div>`;
  const p = { moves: "", ...params };
  const $ = (selector) => root.querySelector(selector);
  const state = { position: null, values: {}, pv: [], closers: [], threatLine: [] };

  const stopAll = () => { state.closers.forEach((close) => close()); state.closers = []; };

  function render() {
    const pos = state.position;
    const labels = {};
    for (const [action, v] of Object.entries(state.values)) labels[action] = describeScore(v.score, v.distance);
    const pv = $("#show-pv").checked ? (state.threatLine.length ? state.threatLine : state.pv) : [];
    drawBoard($("#board"), { game: pos.game, actions: pos.actions, pv, labels, onPlay: pos.over ? null : play });
    $("#status").textContent = pos.over ? `Game over: ${pos.outcome}.` : `${"xo"[pos.to_move]} to move, move ${pos.ply + 1}.`;
  }

  function renderValues(game, pos) {
    const legal = new Set(pos.legal);
    const actions = game.gravity ? [...Array(game.cols).keys()] : [...legal].sort((a, b) => a - b);
    if (!game.gravity) { for (const row of ["moves", "scores", "distances"]) $(`#value-${row}`).innerHTML = ""; return; }
    $("#value-moves").innerHTML = actions.map((a) => `<th>${a + 1}</th>`).join("");
    $("#value-scores").innerHTML = actions.map((a) => {
      const v = state.values[a];
      const d = describeScore(v?.score, v?.distance);
      const text = !legal.has(a) ? "" : v ? d.text : "…";
      return `<td class="${d.kind}" data-col="${a}" title="${d.title || ""}">${text}</td>`;
    }).join("");
    // the distance, as Pons' solver tells it: the mover's own moves to its win, or the opponent's to its win
    $("#value-distances").innerHTML = actions.map((a) => {
      const v = state.values[a];
      const text = !v || v.score === 0 ? "" : `${v.score > 0 ? "win" : "loss"} ${Math.ceil(v.distance / 2)}`;
      return `<td class="distance">${text}</td>`;
    }).join("");
  }

  async function load(moves) {
    stopAll();
    clearMessage();
    p.moves = moves;
    setHashParams("analyse", { ...gameParams(p), moves });
    try { state.position = await getJSON("/api/position", { ...gameParams(p), moves }); } catch (error) { showMessage(error.message); return; }
    $("#moves").value = state.position.moves;  // here, not in render: a live search must not undo the user's typing
    state.values = {}; state.pv = []; state.threatLine = [];
    $("#iterations").innerHTML = "";
    render();
    analyse();
  }

  function play(action) { load(formatMoves(state.position.game, [...state.position.actions, action])); }

  function analyse() {
    const pos = state.position, game = pos.game;
    const request = { ...gameParams(p), moves: pos.moves };
    $("#solver-panel").hidden = !state.solver;
    $("#threat-panel").hidden = game.gravity || game.k < 4;
    if (state.solver) {
      renderValues(game, pos);
      $("#solver-status").textContent = pos.over ? "" : "solving…";
      delete $("#solver-status").dataset.complete;  // a new position: not yet known
      if (!pos.over) {
        // columns appear as they are solved, so the page can give the solver longer than a single answer would wait
        state.closers.push(openStream("/api/analysis/stream", { ...request, time_ms: SOLVER_MS }, {
          value: (v) => { state.values[v.move] = v; renderValues(game, pos); render(); },
          analysis: (a) => {
            $("#solver-status").textContent = a.complete ? `exact, ${a.seconds.toFixed(2)} s` + (a.best.length ? `; best: ${a.best_notation.join(", ")}` : "") : a.message;
            $("#solver-status").dataset.complete = a.complete ? "1" : "0";
          },
          failed: (error) => { $("#solver-status").textContent = error; },
        }));
      }
    }
    if (!pos.over && $("#live").checked) runEngine(request, game);
    if (!pos.over && !$("#threat-panel").hidden) runThreats(request, game);
  }

  function runEngine(request, game) {
    $("#engine-status").textContent = "searching…";
    state.closers.push(openStream("/api/search/stream", { ...request, time_ms: $("#budget").value }, {
      engine: (e) => { $("#engine-status").textContent = `searching with ${e.gomoku_engine ? "the gomoku engine" : e.heuristic}…`; },
      iteration: (it) => {
        const score = it.result ? `${it.result} in ${it.plies_to_end} plies` : it.score.toFixed(1);
        $("#iterations").insertAdjacentHTML("afterbegin", `<tr><td>${it.depth}</td><td>${score}</td><td>${it.nodes.toLocaleString()}</td>` +
          `<td>${it.nps.toLocaleString()}</td><td>${it.seconds.toFixed(2)} s</td><td class="line">${it.pv_notation.join(" ")}</td></tr>`);
        state.pv = it.pv;
        render();
      },
      end: (e) => { $("#engine-status").textContent = e.cancelled ? "stopped" : "done"; },
      failed: (error) => { $("#engine-status").textContent = error; },
    }));
  }

  async function runThreats(request, game) {
    const box = $("#threats");
    box.textContent = "looking for a VCF or a VCT…";
    const controller = new AbortController();
    state.closers.push(() => controller.abort());
    try {
      const t = await getJSON("/api/threats", request, controller.signal);
      const side = "xo"[t.to_move];
      const found = t.vcf.win ? ["VCF", t.vcf] : t.vct && t.vct.win ? ["VCT", t.vct] : null;
      if (found) {
        box.innerHTML = `<b>${side} wins by ${found[0]}</b> in ${found[1].plies} plies: <span class="line">${found[1].notation.join(" ")}</span> <button id="show-threat">show on the board</button>`;
        box.querySelector("#show-threat").addEventListener("click", () => { state.threatLine = state.threatLine.length ? [] : found[1].line; render(); });
      } else {
        const complete = t.vcf.complete && (!t.vct || t.vct.complete);
        box.textContent = `no VCF${t.vct ? " or VCT" : ""} for ${side} ${complete ? "(searched to the end of the budget's depth)" : "within the budget"}; ${(t.vcf.nodes + (t.vct ? t.vct.nodes : 0)).toLocaleString()} nodes.`;
      }
    } catch (error) { if (error.name !== "AbortError") box.textContent = error.message; }
  }

  gameForm($(".game-form"), p, (game) => { for (const key of ["rows", "cols", "k", "exact"]) delete p[key]; Object.assign(p, game); setup(""); });
  $("#load").addEventListener("click", () => load($("#moves").value));
  $("#moves").addEventListener("keydown", (event) => { if (event.key === "Enter") load($("#moves").value); });
  $("#undo").addEventListener("click", () => { const pos = state.position; if (pos && pos.actions.length) load(formatMoves(pos.game, pos.actions.slice(0, -1))); });
  $("#clear").addEventListener("click", () => load(""));
  $("#show-pv").addEventListener("change", render);
  $("#live").addEventListener("change", () => load(p.moves));

  async function setup(moves) {
    const preview = localGame(p);  // the empty board at once; the server's answer replaces it
    if (preview && !moves) drawBoard($("#board"), { game: preview, actions: [] });
    try { state.solver = (await describeGame(p)).solver; } catch (error) { showMessage(error.message); return; }
    await load(moves);
  }
  await setup(p.moves);
  return stopAll;
}
