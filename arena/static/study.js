// Study: a tuning study's progress from its storage: Elo by trial with 95 % intervals, the best trial, the weights.
// Optuna's dashboard draws the generic plots (importances, parallel coordinates); the page gives its command.

import { clearMessage, getJSON, showMessage } from "./api.js";
import { setHashParams } from "./gameform.js";

const SVG = "http://www.w3.org/2000/svg";
const esc = (text) => String(text ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
const num = (x, digits = 1) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));

/** Elo by trial: a dot per trial with its interval as a bar, the best trial ringed. */
function eloChart(trials, best) {
  const shown = trials.filter((t) => t.elo !== null);
  const width = 640, height = 260, left = 48, bottom = 28, top = 12;
  const lows = shown.map((t) => t.elo_low ?? t.elo), highs = shown.map((t) => t.elo_high ?? t.elo);
  const yMin = Math.min(0, ...lows) - 10, yMax = Math.max(0, ...highs) + 10;
  const xMax = Math.max(1, ...trials.map((t) => t.number));
  const x = (n) => left + (n / xMax) * (width - left - 12);
  const y = (v) => top + (1 - (v - yMin) / (yMax - yMin)) * (height - top - bottom);
  const parts = [`<svg xmlns="${SVG}" viewBox="0 0 ${width} ${height}" class="chart" id="elo-chart">`,
    `<line x1="${left}" x2="${width - 8}" y1="${y(0)}" y2="${y(0)}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<text x="${left - 6}" y="${y(yMax) + 10}" text-anchor="end" font-size="11">${yMax.toFixed(0)}</text>`,
    `<text x="${left - 6}" y="${y(0) + 4}" text-anchor="end" font-size="11">0</text>`,
    `<text x="${left - 6}" y="${y(yMin)}" text-anchor="end" font-size="11">${yMin.toFixed(0)}</text>`,
    `<text x="${(width + left) / 2}" y="${height - 6}" text-anchor="middle" font-size="11">trial</text>`,
    `<text x="${x(0)}" y="${height - 6}" text-anchor="middle" font-size="11">0</text>`,
    `<text x="${x(xMax)}" y="${height - 6}" text-anchor="middle" font-size="11">${xMax}</text>`,
    `<text x="12" y="${height / 2}" transform="rotate(-90 12 ${height / 2})" text-anchor="middle" font-size="11">Elo (95 % interval)</text>`];
  for (const t of shown) {
    const colour = t.state === "complete" ? "#1f5fbf" : "#aaa";
    parts.push(`<line x1="${x(t.number)}" x2="${x(t.number)}" y1="${y(t.elo_low ?? t.elo)}" y2="${y(t.elo_high ?? t.elo)}" stroke="${colour}" opacity="0.6"/>`);
    parts.push(`<circle class="trial-dot" data-trial="${t.number}" cx="${x(t.number)}" cy="${y(t.elo)}" r="3.5" fill="${colour}"><title>trial ${t.number}: ${num(t.elo)} [${num(t.elo_low)}, ${num(t.elo_high)}] (${t.state})</title></circle>`);
  }
  if (best && best.elo !== null) parts.push(`<circle cx="${x(best.number)}" cy="${y(best.elo)}" r="8" fill="none" stroke="#2e7d32" stroke-width="2"/>`);
  parts.push("</svg>");
  return parts.join("");
}

function weightsTable(weights) {
  const rows = weights.map((w) => {
    const span = w.high !== null && w.low !== null && w.high > w.low ? w.high - w.low : null;
    const bar = span !== null && w.best !== null ? `<span class="bar"><span style="width:${(100 * (w.best - w.low)) / span}%"></span></span>` : "";
    return `<tr><td>${esc(w.name)}</td><td>${num(w.low, 2)} – ${num(w.high, 2)}</td><td class="best-value">${num(w.best, 3)} ${bar}</td><td>${num(w.defaults, 3)}</td><td>${num(w.incumbent, 3)}</td></tr>`;
  });
  return `<table class="weights"><thead><tr><th>weight</th><th>range</th><th>best trial</th><th>paper defaults</th><th>incumbent</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function trialsTable(trials) {
  const rows = trials.map((t) => `<tr class="${t.state}"><td>${t.number}</td><td>${t.state}</td><td>${num(t.value, 3)}</td><td>${num(t.elo)}</td>` +
    `<td>[${num(t.elo_low)}, ${num(t.elo_high)}]</td><td>${t.games ?? "–"}</td><td>${esc(t.start || "")}</td></tr>`);
  return `<table class="trials"><thead><tr><th>trial</th><th>state</th><th>score</th><th>Elo</th><th>95 % interval</th><th>games</th><th>start</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function studyHtml(s) {
  const b = s.best;
  const set = s.settings;
  const verdict = s.verdict && s.verdict.verdict ? `<p class="verdict">Verdict: ${esc(s.verdict.verdict)}</p>` : "";
  const confirmations = s.confirmations.length ? `<p>Confirmed on held-out openings: ${s.confirmations.map((c) => `trial ${c.trial} ${num(c.elo)} [${num(c.elo_low)}, ${num(c.elo_high)}]`).join("; ")}</p>` : "";
  return `<h2 id="study-name">${esc(s.study)}</h2>
    <p class="info">${esc(set.game || "")} · heuristic ${esc(set.heuristic || "?")} · ${esc(set.mode || "")} mode · ${set.nodes ?? "?"} nodes a move ·
      trials: ${s.counts.complete} complete, ${s.counts.pruned} pruned, ${s.counts.running} running, ${s.counts.fail} failed</p>
    <p id="best" class="best">${b ? `Best so far: trial ${b.number}, score ${num(b.value, 3)}, Elo ${num(b.elo)} [${num(b.elo_low)}, ${num(b.elo_high)}] over ${b.games ?? "?"} games against the opponents` : "No complete trial yet."}</p>
    ${verdict}${confirmations}
    ${eloChart(s.trials, b)}
    <h3>Weights</h3>${weightsTable(s.weights)}
    <h3>Trials</h3>${trialsTable(s.trials)}
    <p class="info">For the generic plots (parameter importances, parallel coordinates, contours), run Optuna's dashboard on the same storage:
      <code>${esc(s.dashboard)}</code> (<code>pip install optuna-dashboard</code>).</p>`;
}

export async function studyView(root, params) {
  root.innerHTML = `
    <section class="controls"><label>Storage <input id="storage" size="50" placeholder="sqlite:///runs/tuning.db or postgresql://user@host/db"></label>
      <button id="open">Open</button> <select id="studies" hidden></select> <button id="refresh" hidden>Refresh</button></section>
    <p class="info">Passwords in a URL are used to connect and never shown or stored by the page.</p>
    <div id="study"></div>`;
  const $ = (selector) => root.querySelector(selector);
  const p = { storage: "", study: "", ...params };
  // the address keeps the study's name but never the URL's password: the hash is redacted as the server shows it
  const save = (shown) => setHashParams("study", { storage: shown, study: p.study });

  async function showStudy() {
    clearMessage();
    try {
      const s = await getJSON("/api/study", { storage: p.storage, study: p.study });
      $("#study").innerHTML = studyHtml(s);
      save(s.storage);
    } catch (error) { showMessage(error.message); }
  }

  async function open() {
    p.storage = $("#storage").value.trim();
    clearMessage();
    $("#study").innerHTML = "";
    try {
      const found = await getJSON("/api/study", { storage: p.storage });
      save(found.storage);
      $("#studies").innerHTML = found.studies.map((s) => `<option value="${esc(s.name)}">${esc(s.name)}${s.game ? ` (${esc(s.game)})` : ""}</option>`).join("");
      $("#studies").hidden = $("#refresh").hidden = !found.studies.length;
      if (!found.studies.length) { showMessage(`no study in ${found.storage}`, "note"); return; }
      if (!found.studies.some((s) => s.name === p.study)) p.study = found.studies[0].name;
      $("#studies").value = p.study;
      await showStudy();
    } catch (error) { showMessage(error.message); }
  }

  $("#open").addEventListener("click", open);
  $("#storage").addEventListener("keydown", (event) => { if (event.key === "Enter") open(); });
  $("#studies").addEventListener("change", (event) => { p.study = event.target.value; showStudy(); });
  $("#refresh").addEventListener("click", showStudy);
  $("#storage").value = p.storage;
  if (p.storage && !p.storage.includes("***")) await open();
  return () => {};
}
