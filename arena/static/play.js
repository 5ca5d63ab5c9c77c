// Play: you against any agent spec or shipped weight file, with take back, new game, swap sides, thinking time,
// and the game record as the project's move string (the position lives in the address, so it can be shared).

import { clearMessage, getJSON, showMessage } from "./api.js";
import { drawBoard, formatMoves } from "./board.js";
import { describeGame, gameForm, gameParams, localGame, setHashParams } from "./gameform.js";

const SIDES = ["x (first)", "o (second)"];

export async function playView(root, params) {
  root.innerHTML = `
    <section class="controls">
      <form class="game-form"></form>
      <label>Opponent <input name="agent" list="agents" size="28"></label><datalist id="agents"></datalist>
      <label>Thinking time <select name="time_ms">
        <option value="100">0.1 s</option><option value="300">0.3 s</option><option value="1000">1 s</option>
        <option value="3000">3 s</option><option value="10000">10 s</option></select></label>
      <label>You play <select name="human"><option value="0">${SIDES[0]}</option><option value="1">${SIDES[1]}</option></select></label>
    </section>
    <section class="actions">
      <button id="new-game">New game</button> <button id="take-back">Take back</button> <button id="swap">Swap sides</button>
    </section>
    <div class="board-wrap" id="board"></div>
    <p id="status" class="status"></p>
    <p id="agent-info" class="info"></p>
    <p class="record"><label>Game record <input id="record" readonly size="40"></label> <button id="copy">Copy</button>
      <a id="to-analysis" href="#/analyse">Analyse this position</a></p>`;
  const p = { agent: "", time_ms: "1000", human: "0", moves: "", ...params };
  const $ = (selector) => root.querySelector(selector);
  const state = { position: null, thinking: null, info: "" };

  const save = () => setHashParams("play", { ...gameParams(p), moves: p.moves, agent: p.agent, time_ms: p.time_ms, human: p.human });
  const humanToMove = () => state.position && !state.position.over && state.position.to_move === Number(p.human);

  function render() {
    const pos = state.position;
    if (!pos) return;
    drawBoard($("#board"), { game: pos.game, actions: pos.actions, onPlay: humanToMove() && !state.thinking ? humanPlay : null });
    $("#record").value = pos.moves;
    $("#to-analysis").href = `#/analyse?${new URLSearchParams({ ...gameParams(p), moves: pos.moves })}`;
    $("#agent-info").textContent = state.info;
    $("#status").textContent = statusText(pos);
    $("#status").dataset.over = pos.over ? "1" : "0";
  }

  function statusText(pos) {
    if (pos.over) {
      if (pos.winner === null) return `Game over: drawn after ${pos.ply} moves.`;
      const you = pos.winner === Number(p.human);
      return `Game over: ${pos.outcome} in ${pos.ply} moves; ${you ? "you won" : `you lost (${p.agent} won)`}.`;
    }
    if (state.thinking) return `${p.agent} is thinking…`;
    return humanToMove() ? `Your move (${"xo"[pos.to_move]}).` : "";
  }

  async function setMoves(moves) {
    p.moves = moves;
    save();
    state.position = await getJSON("/api/position", { ...gameParams(p), moves });
    render();
  }

  async function humanPlay(action) {
    if (!humanToMove() || state.thinking) return;
    clearMessage();
    const pos = state.position;
    try {
      await setMoves(formatMoves(pos.game, [...pos.actions, action]));
      await agentMove();
    } catch (error) { showMessage(error.message); }
  }

  async function agentMove() {
    const pos = state.position;
    if (!pos || pos.over || pos.to_move === Number(p.human) || state.thinking) return;
    const controller = new AbortController();
    state.thinking = controller;
    render();
    try {
      const answer = await getJSON("/api/move", { ...gameParams(p), moves: pos.moves, agent: p.agent, time_ms: p.time_ms }, controller.signal);
      if (state.thinking !== controller) return;  // taken back or a new game meanwhile
      const i = answer.info;
      state.info = `${p.agent} played ${answer.notation}` + (i.score !== undefined ? `, score ${i.score}` : "") +
        (i.depth !== undefined ? `, depth ${i.depth}` : "") + (i.nodes !== undefined ? `, ${i.nodes.toLocaleString()} nodes` : "") +
        (i.source ? ` (${i.source})` : "") + ` in ${i.seconds.toFixed(2)} s`;
      state.thinking = null;
      p.moves = answer.position.moves;
      save();
      state.position = answer.position;
    } catch (error) {
      if (error.name !== "AbortError") showMessage(error.message);
      if (state.thinking === controller) state.thinking = null;
    }
    render();
  }

  function stopThinking() { if (state.thinking) { state.thinking.abort(); state.thinking = null; } }

  async function restart(moves) {
    stopThinking();
    clearMessage();
    state.info = "";
    try { await setMoves(moves); await agentMove(); } catch (error) { showMessage(error.message); }
  }

  gameForm($(".game-form"), p, (game) => { for (const key of ["rows", "cols", "k", "exact"]) delete p[key]; Object.assign(p, game); p.agent = ""; p.moves = ""; setup(); });
  for (const name of ["agent", "time_ms", "human"]) {
    $(`[name=${name}]`).addEventListener("change", (event) => {
      p[name] = event.target.value;
      save();
      if (name === "human") { stopThinking(); render(); agentMove(); }
    });
  }
  $("#new-game").addEventListener("click", () => restart(""));
  $("#swap").addEventListener("click", () => { p.human = String(1 - Number(p.human)); $("[name=human]").value = p.human; save(); stopThinking(); render(); agentMove(); });
  $("#take-back").addEventListener("click", () => {
    const pos = state.position;
    if (!pos || !pos.actions.length) return;
    const wasThinking = Boolean(state.thinking);
    stopThinking();
    let back = 1;  // the agent's reply and your move, or only your move while it thinks
    if (!wasThinking && pos.to_move === Number(p.human) && pos.actions.length >= 2) back = 2;
    if (pos.over && pos.winner === Number(p.human)) back = 1;
    restart(formatMoves(pos.game, pos.actions.slice(0, -back)));
  });
  $("#copy").addEventListener("click", async () => {
    $("#record").select();
    try { await navigator.clipboard.writeText($("#record").value); showMessage("Copied the game record.", "note"); } catch { document.execCommand("copy"); }
  });

  async function setup() {
    const preview = localGame(p);  // the empty board at once; the server's answer replaces it
    if (preview && !p.moves) drawBoard($("#board"), { game: preview, actions: [] });
    try {
      const described = await describeGame(p);
      const names = [...described.agents, ...described.weights];
      $("#agents").innerHTML = names.map((n) => `<option value="${n}">`).join("");
      if (!p.agent) p.agent = described.solver ? "perfect" : "alphabeta";
      $("[name=agent]").value = p.agent;
      $("[name=time_ms]").value = p.time_ms;
      $("[name=human]").value = p.human;
      await restart(p.moves);
    } catch (error) { showMessage(error.message); }
  }
  await setup();
  return () => stopThinking();
}
