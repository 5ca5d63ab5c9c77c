// Boards as SVG, the same picture as arena/svg.py draws in Python: Connect-4 as a blue frame of holes with red
// and yellow discs, m,n,k boards as a wooden grid with black and white stones.  A board is drawn from its game and
// the moves played (the page never needs the server to replay a game), with optional extras: a line of future
// moves as numbered translucent stones, labels per column or cell, and click targets.

const SVG = "http://www.w3.org/2000/svg";
export const CELL = 40;
export const MARGIN = 24;
const COLOURS = {
  frame: "#1f5fbf", hole: "#f4f6fb", wood: "#e3b869", line: "#6b4a1a",
  x_gravity: "#d7263d", o_gravity: "#f5c400", x_free: "#111111", o_free: "#fafafa",
};

/** Column letters as the notation writes them: a .. z, aa, ab ... */
export function columnName(col) {
  let name = "";
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(97 + ((n - 1) % 26)) + name;
  return name;
}

/** One move in the game's notation: a 1-based column (gravity) or a cell name such as h8. */
export function formatMove(game, action) {
  if (game.gravity) return String(action + 1);
  return `${columnName(action % game.cols)}${game.rows - Math.floor(action / game.cols)}`;
}

/** A move string from actions: Pons' digits on boards up to 9 columns, else separated by spaces. */
export function formatMoves(game, actions) {
  const sep = game.gravity && game.cols <= 9 ? "" : " ";
  return actions.map((a) => formatMove(game, a)).join(sep);
}

/** Replay actions on an empty grid: {grid (0 empty, 1 x, 2 o; row 0 at the top), cells: [row, col] per move}. */
export function replay(game, actions) {
  const grid = Array.from({ length: game.rows }, () => new Array(game.cols).fill(0));
  const heights = new Array(game.cols).fill(0);
  const cells = [];
  actions.forEach((action, ply) => {
    let row, col;
    if (game.gravity) { col = action; row = game.rows - 1 - heights[col]++; } else { row = Math.floor(action / game.cols); col = action % game.cols; }
    grid[row][col] = 1 + (ply % 2);
    cells.push([row, col]);
  });
  return { grid, cells, heights };
}

/** The cells of the line the last stone completed, or [] (the rules of games/: k or more, exactly k under exact-k). */
export function winningLine(game, grid, last) {
  if (!last) return [];
  const [row, col] = last;
  const colour = grid[row][col];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    const line = [[row, col]];
    for (const sign of [1, -1]) {
      let r = row + sign * dr, c = col + sign * dc;
      while (r >= 0 && r < game.rows && c >= 0 && c < game.cols && grid[r][c] === colour) { line.push([r, c]); r += sign * dr; c += sign * dc; }
    }
    if (line.length === game.k || (line.length > game.k && !game.exact_k)) return line;
  }
  return [];
}

/** Small boards are drawn larger, boards of 15 columns and more smaller (a 20x20 board fits a laptop's window;
 * larger ones scroll inside their frame). */
export function displayScale(game) {
  return game.cols <= 9 && game.rows <= 9 ? 1.4 : game.cols >= 15 || game.rows >= 15 ? 0.75 : 1;
}

function el(name, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== "") node.textContent = text;
  return node;
}

function stoneColour(player, gravity) { return COLOURS[`${"xo"[player]}_${gravity ? "gravity" : "free"}`]; }
const centre = (rc) => [MARGIN + (rc[1] + 0.5) * CELL, MARGIN + (rc[0] + 0.5) * CELL];

function background(svg, game) {
  const w = game.cols * CELL, h = game.rows * CELL;
  if (game.gravity) {
    svg.append(el("rect", { x: MARGIN, y: MARGIN, width: w, height: h, rx: 8, fill: COLOURS.frame }));
    for (let r = 0; r < game.rows; r++) for (let c = 0; c < game.cols; c++) {
      const [cx, cy] = centre([r, c]);
      svg.append(el("circle", { cx, cy, r: CELL * 0.42, fill: COLOURS.hole }));
    }
  } else {
    svg.append(el("rect", { x: MARGIN, y: MARGIN, width: w, height: h, fill: COLOURS.wood }));
    for (let c = 0; c < game.cols; c++) svg.append(el("line", { x1: MARGIN + (c + 0.5) * CELL, y1: MARGIN + CELL / 2, x2: MARGIN + (c + 0.5) * CELL, y2: MARGIN + h - CELL / 2, stroke: COLOURS.line }));
    for (let r = 0; r < game.rows; r++) svg.append(el("line", { x1: MARGIN + CELL / 2, y1: MARGIN + (r + 0.5) * CELL, x2: MARGIN + w - CELL / 2, y2: MARGIN + (r + 0.5) * CELL, stroke: COLOURS.line }));
    for (let r = 0; r < game.rows; r++) svg.append(el("text", { x: MARGIN - 6, y: MARGIN + (r + 0.5) * CELL + 4, "font-size": 12, "text-anchor": "end", fill: "#333" }, String(game.rows - r)));
  }
  for (let c = 0; c < game.cols; c++) {
    svg.append(el("text", { x: MARGIN + (c + 0.5) * CELL, y: MARGIN + h + 16, "font-size": 12, "text-anchor": "middle", fill: "#333" }, game.gravity ? String(c + 1) : columnName(c)));
  }
}

/**
 * Draw a board into container.  view: {game, actions, ply (moves shown, default all), pv (actions after them),
 * labels ({action: {text, kind}}), onPlay (called with an action when a legal target is clicked)}.
 * Returns the SVG element; its data-ply and data-stones attributes say what it shows (the tests read them).
 */
export function drawBoard(container, view) {
  const { game } = view;
  const ply = view.ply ?? view.actions.length;
  const shown = view.actions.slice(0, ply);
  const { grid, cells, heights } = replay(game, shown);
  const width = game.cols * CELL + 2 * MARGIN, height = game.rows * CELL + 2 * MARGIN;
  const scale = displayScale(game);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width: width * scale, height: height * scale, class: "board", "font-family": "sans-serif",
    "data-ply": ply, "data-stones": shown.length, role: "img", "aria-label": `${game.name} after ${ply} moves` });
  background(svg, game);
  cells.forEach((rc, i) => {
    const [cx, cy] = centre(rc);
    svg.append(el("circle", { class: "stone", cx, cy, r: CELL * 0.42, fill: stoneColour(i % 2, game.gravity), stroke: "#333", "data-ply": i + 1 }));
  });
  if (cells.length) {
    const [cx, cy] = centre(cells[cells.length - 1]);
    svg.append(el("circle", { class: "last", cx, cy, r: CELL * 0.12, fill: "#888" }));
    for (const rc of winningLine(game, grid, cells[cells.length - 1])) {
      const [wx, wy] = centre(rc);
      svg.append(el("circle", { class: "win", cx: wx, cy: wy, r: CELL * 0.23, fill: "none", stroke: "#2e7d32", "stroke-width": 4 }));
    }
  }
  drawLine(svg, game, grid, heights, shown.length, view.pv || []);
  drawLabels(svg, game, view.labels || {});
  if (view.onPlay) addTargets(svg, game, grid, view.onPlay);
  container.replaceChildren(svg);
  return svg;
}

function drawLine(svg, game, grid, heights, ply, pv) {
  const taken = grid.map((row) => row.slice());
  const h = heights.slice();
  pv.forEach((action, i) => {
    let row, col;
    if (game.gravity) { col = action; if (h[col] >= game.rows) return; row = game.rows - 1 - h[col]++; } else { row = Math.floor(action / game.cols); col = action % game.cols; if (taken[row][col]) return; }
    taken[row][col] = 3;
    const [cx, cy] = centre([row, col]);
    const player = (ply + i) % 2;
    const g = el("g", { class: "pv" });
    g.append(el("circle", { cx, cy, r: CELL * 0.42, fill: stoneColour(player, game.gravity), opacity: 0.45 }));
    g.append(el("text", { x: cx, y: cy + 5, "font-size": 14, "text-anchor": "middle", fill: player === 0 ? "#fff" : "#000" }, String(i + 1)));
    svg.append(g);
  });
}

function drawLabels(svg, game, labels) {
  for (const [key, label] of Object.entries(labels)) {
    const action = Number(key);
    let x, y;
    if (game.gravity) { x = MARGIN + (action + 0.5) * CELL; y = MARGIN - 7; } else { x = MARGIN + ((action % game.cols) + 0.5) * CELL; y = MARGIN + (Math.floor(action / game.cols) + 0.5) * CELL + 4; }
    svg.append(el("text", { class: `label ${label.kind || ""}`, x, y, "font-size": 13, "text-anchor": "middle", "data-action": action }, label.text));
  }
}

function addTargets(svg, game, grid, onPlay) {
  if (game.gravity) {
    for (let c = 0; c < game.cols; c++) {
      const full = grid[0][c] !== 0;
      const hit = el("rect", { class: `target${full ? " full" : ""}`, x: MARGIN + c * CELL, y: 0, width: CELL, height: game.rows * CELL + 2 * MARGIN, "data-col": c });
      if (!full) hit.addEventListener("click", () => onPlay(c));
      svg.append(hit);
    }
    return;
  }
  for (let r = 0; r < game.rows; r++) for (let c = 0; c < game.cols; c++) {
    if (grid[r][c]) continue;
    const action = r * game.cols + c;
    const hit = el("rect", { class: "target", x: MARGIN + c * CELL, y: MARGIN + r * CELL, width: CELL, height: CELL, "data-cell": action, "data-name": formatMove(game, action) });
    hit.addEventListener("click", () => onPlay(action));
    svg.append(hit);
  }
}
