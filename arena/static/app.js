// The page: a view per part (#/play, #/analyse, #/watch, #/study), chosen by the address, and the engine's status.

import { analyseView } from "./analyse.js";
import { clearMessage, getJSON } from "./api.js";
import { hashParams } from "./gameform.js";
import { playView } from "./play.js";
import { studyView } from "./study.js";
import { watchView } from "./watch.js";

const VIEWS = { play: playView, analyse: analyseView, watch: watchView, study: studyView };
let leave = () => {};

async function route() {
  const name = (location.hash.match(/^#\/(\w+)/) || [])[1] || "play";
  const view = VIEWS[name] || playView;
  leave();
  leave = () => {};
  clearMessage();
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("active", link.dataset.view === name);
  const root = document.getElementById("view");
  root.dataset.view = name;
  leave = (await view(root, hashParams())) || (() => {});
}

async function pollStatus() {
  const badge = document.getElementById("engine-status");
  try {
    const status = await getJSON("/api/status");
    badge.textContent = status.ready ? (status.error ? `engine: ${status.error}` : "engine ready") : status.message;
    badge.dataset.ready = status.ready ? "1" : "0";
    if (!status.ready) setTimeout(pollStatus, 1000);
  } catch {
    badge.textContent = "the server does not answer";
    setTimeout(pollStatus, 3000);
  }
}

window.addEventListener("hashchange", (event) => {
  // views rewrite their own query (replaceState does not fire this); a change of view or a pasted address does
  route();
});
route();
pollStatus();
