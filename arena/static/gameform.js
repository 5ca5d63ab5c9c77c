// The game chooser every view shares: Connect-4 of any size, tic-tac-toe, gomoku (freestyle or exact-k), any m,n,k.

import { getJSON } from "./api.js";

export const GAME_KEYS = ["game", "rows", "cols", "k", "exact"];

/** The game part of a parameter object (what the API's game= rows= cols= k= exact= take). */
export function gameParams(params) {
  const out = {};
  for (const key of GAME_KEYS) if (params[key] !== undefined && params[key] !== "") out[key] = params[key];
  if (!out.game) out.game = "connect4";
  return out;
}

/**
 * Render the chooser into container with the values of params; onChange(gameParams) on every change.
 * Sizes are shown where the game takes them (Connect-4 and m,n,k).
 */
export function gameForm(container, params, onChange) {
  const p = gameParams(params);
  container.innerHTML = `
    <label>Game <select name="game">
      <option value="connect4">Connect-4</option><option value="tictactoe">tic-tac-toe</option>
      <option value="gomoku">gomoku 15x15</option><option value="mnk">m,n,k</option></select></label>
    <span class="sizes"><label>rows <input name="rows" type="number" min="1" max="100" size="3"></label>
      <label>cols <input name="cols" type="number" min="1" max="100" size="3"></label>
      <label>k <input name="k" type="number" min="2" max="100" size="3"></label></span>
    <label title="exactly k in a row wins; an overline does not (standard gomoku)"><input name="exact" type="checkbox"> exact-k</label>`;
  const field = (name) => container.querySelector(`[name=${name}]`);
  field("game").value = p.game;
  for (const name of ["rows", "cols", "k"]) field(name).value = p[name] || "";
  field("exact").checked = p.exact === "1";
  const sync = () => {
    const kind = field("game").value;
    container.querySelector(".sizes").hidden = !(kind === "connect4" || kind === "mnk");
    const defaults = kind === "connect4" ? ["6", "7", "4"] : ["15", "15", "5"];  // what an empty field means
    ["rows", "cols", "k"].forEach((name, i) => { field(name).placeholder = kind === "connect4" ? defaults[i] : ""; });
  };
  sync();
  container.addEventListener("change", () => {
    sync();
    const kind = field("game").value;
    const out = { game: kind };
    if (kind === "connect4" || kind === "mnk") for (const name of ["rows", "cols", "k"]) if (field(name).value) out[name] = field(name).value;
    if (field("exact").checked) out.exact = "1";
    onChange(out);
  });
}

/**
 * The game of params as far as the page can tell without the server (null for an m,n,k game without its sizes):
 * enough to draw the empty board at once, while the server's engine is still being prepared.
 */
export function localGame(params) {
  const p = gameParams(params);
  const exact_k = p.exact === "1";
  const sized = (rows, cols, k, gravity) => ({ rows: Number(p.rows || rows), cols: Number(p.cols || cols), k: Number(p.k || k), gravity, exact_k, name: p.game });
  if (p.game === "connect4") return sized(6, 7, 4, true);
  if (p.game === "tictactoe") return { rows: 3, cols: 3, k: 3, gravity: false, exact_k, name: "tic-tac-toe" };
  if (p.game === "gomoku") return { rows: 15, cols: 15, k: 5, gravity: false, exact_k, name: "gomoku" };
  return p.rows && p.cols && p.k ? sized(0, 0, 0, false) : null;
}

/** The game as the server describes it, and the opponents it offers (throws with the server's message). */
export async function describeGame(params) {
  return getJSON("/api/games", gameParams(params));
}

/** A parameter object from the hash's query (#/view?key=value...). */
export function hashParams() {
  const query = location.hash.split("?")[1] || "";
  return Object.fromEntries(new URLSearchParams(query));
}

/** Put params in the hash (replacing the history entry: the back button leaves the view, not a move). */
export function setHashParams(view, params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") q.set(key, value);
  history.replaceState(null, "", `#/${view}?${q.toString()}`);
}
