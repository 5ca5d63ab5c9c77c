// Watch: replay any game of a match or tournament file move by move, or watch two agents play live.

import { clearMessage, openStream, postText, showMessage } from "./api.js";
import { drawBoard } from "./board.js";
import { describeGame, gameForm, gameParams, setHashParams } from "./gameform.js";

export async function watchView(root, params) {
  root.innerHTML = `
    <section><h2>Replay a file</h2>
      <p class="info">The JSON of <code>python -m arena.record</code> (a match's games), <code>python -m scripts.gomoku_match --out</code>
        or <code>python -m scripts.mnk_tournament --out</code>.</p>
      <input type="file" id="file" accept=".json,application/json"> <select id="games" hidden></select>
      <div id="replay" hidden>
        <p id="game-info" class="info"></p>
        <div class="scrub"><button id="first" title="first (Home)">⏮</button><button id="prev" title="back (←)">◀</button>
          <input type="range" id="ply" min="0" value="0"><button id="next" title="forward (→)">▶</button><button id="last" title="last (End)">⏭</button>
          <span id="ply-label"></span></div>
        <div class="replay-layout"><div class="board-wrap" id="replay-board"></div><ol id="move-list" class="move-list"></ol></div>
      </div></section>
    <section><h2>Watch two agents</h2>
      <div class="controls"><form class="game-form"></form></div>
      <div class="controls"><label>x (first) <input name="a" list="watch-agents" size="24"></label> <label>o (second) <input name="b" list="watch-agents" size="24"></label>
      <datalist id="watch-agents"></datalist>
      <label>time per move <select name="time_ms"><option value="100">0.1 s</option><option value="300" selected>0.3 s</option><option value="1000">1 s</option></select></label>
      <button id="start">Start</button> <button id="stop">Stop</button></div>
      <div class="board-wrap" id="live-board"></div><p id="live-status" class="status"></p></section>`;
  const $ = (selector) => root.querySelector(selector);
  const p = { a: "alphabeta", b: "rules", time_ms: "300", ...params };
  const replay = { games: [], game: null, ply: 0 };
  let closeLive = null;

  function showPly(ply) {
    const g = replay.game;
    replay.ply = Math.max(0, Math.min(ply, g.moves.length));
    drawBoard($("#replay-board"), { game: g.game, actions: g.moves, ply: replay.ply });
    $("#ply").value = replay.ply;
    $("#ply-label").textContent = `move ${replay.ply} of ${g.moves.length}`;
    for (const item of $("#move-list").children) {
      const current = Number(item.dataset.ply) === replay.ply;
      item.classList.toggle("current", current);
      if (current) item.scrollIntoView({ block: "nearest" });
    }
  }

  function chooseGame(index) {
    const g = replay.games[index];
    replay.game = g;
    const winner = g.winner === null ? "drawn" : `won by ${g.winner === 0 ? g.first : g.second}`;
    $("#game-info").textContent = `${g.label}: ${winner}${g.reason ? ` (${g.reason}${g.detail ? `: ${g.detail}` : ""})` : ""}` +
      (g.opening_plies ? `; the first ${g.opening_plies} moves are the opening` : "");
    $("#ply").max = g.moves.length;
    $("#move-list").innerHTML = g.notation.map((n, i) => `<li data-ply="${i + 1}" class="${i < g.opening_plies ? "opening" : ""}">${i + 1}. ${n}</li>`).join("");
    $("#replay").hidden = false;
    showPly(g.moves.length);
  }

  $("#file").addEventListener("change", async () => {
    const file = $("#file").files[0];
    if (!file) return;
    clearMessage();
    try {
      const data = await postText("/api/replay", await file.text());
      replay.games = data.games;
      $("#games").innerHTML = data.games.map((g, i) => `<option value="${i}">${g.label} (${g.moves.length} moves)</option>`).join("");
      $("#games").hidden = false;
      showMessage(`${data.title}: ${data.games.length} games`, "note");
      chooseGame(0);
    } catch (error) { showMessage(`${file.name}: ${error.message}`); }
  });
  $("#games").addEventListener("change", (event) => chooseGame(Number(event.target.value)));
  $("#ply").addEventListener("input", (event) => showPly(Number(event.target.value)));
  $("#first").addEventListener("click", () => showPly(0));
  $("#prev").addEventListener("click", () => showPly(replay.ply - 1));
  $("#next").addEventListener("click", () => showPly(replay.ply + 1));
  $("#last").addEventListener("click", () => showPly(Infinity));
  $("#move-list").addEventListener("click", (event) => { if (event.target.dataset.ply) showPly(Number(event.target.dataset.ply)); });
  const keys = (event) => {
    if (!replay.game || event.target.tagName === "INPUT" && event.target.type !== "range") return;
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
    if (step !== undefined) { event.preventDefault(); showPly(replay.ply + step); }
  };
  document.addEventListener("keydown", keys);

  // ---- live
  const save = () => setHashParams("watch", { ...gameParams(p), a: p.a, b: p.b, time_ms: p.time_ms });
  async function setupLive() {
    try {
      const described = await describeGame(p);
      $("#watch-agents").innerHTML = [...described.agents, ...described.weights].map((n) => `<option value="${n}">`).join("");
      drawBoard($("#live-board"), { game: described.game, actions: [] });
    } catch (error) { showMessage(error.message); }
  }
  gameForm($(".game-form"), p, (game) => { for (const key of ["rows", "cols", "k", "exact"]) delete p[key]; Object.assign(p, game); save(); setupLive(); });
  for (const name of ["a", "b", "time_ms"]) {
    $(`[name=${name}]`).value = p[name];
    $(`[name=${name}]`).addEventListener("change", (event) => { p[name] = event.target.value; save(); });
  }
  const stop = () => { if (closeLive) { closeLive(); closeLive = null; } };
  $("#stop").addEventListener("click", () => { stop(); $("#live-status").textContent = "stopped"; });
  $("#start").addEventListener("click", () => {
    stop();
    clearMessage();
    $("#live-status").textContent = "starting…";
    let game = null;
    closeLive = openStream("/api/watch/stream", { ...gameParams(p), a: p.a, b: p.b, time_ms: p.time_ms }, {
      start: (s) => { game = s.position.game; drawBoard($("#live-board"), { game, actions: s.position.actions }); },
      move: (m) => {
        drawBoard($("#live-board"), { game, actions: m.position.actions });
        const i = m.info;
        $("#live-status").textContent = `move ${m.ply}: ${m.agent} played ${m.notation}` + (i.score !== undefined ? ` (score ${i.score}${i.depth !== undefined ? `, depth ${i.depth}` : ""})` : "");
      },
      result: (r) => { $("#live-status").textContent = `${r.outcome}: ${r.moves}`; },
      failed: (error) => { $("#live-status").textContent = error; },
    });
  });
  await setupLive();
  return () => { stop(); document.removeEventListener("keydown", keys); };
}
