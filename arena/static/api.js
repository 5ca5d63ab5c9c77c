// The JSON API as the views call it: one-line errors shown on the page, event streams that close on demand.

const message = () => document.getElementById("message");

/** Show a one-line message above the view (an error unless kind says otherwise). */
export function showMessage(text, kind = "error") {
  const box = message();
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

export function clearMessage() { showMessage(""); }

/** The query string of a parameter object, leaving out empty values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") q.set(key, value);
  }
  return q.toString();
}

/** GET a JSON endpoint; throws an Error whose message is the server's one-line error. */
export async function getJSON(path, params = {}, signal = undefined) {
  const response = await fetch(`${path}?${query(params)}`, { signal });
  return answer(response);
}

/** POST text (a file's content) to a JSON endpoint. */
export async function postText(path, text) {
  const response = await fetch(path, { method: "POST", body: text, headers: { "Content-Type": "application/json" } });
  return answer(response);
}

async function answer(response) {
  let data;
  try { data = await response.json(); } catch { data = { error: `the server answered ${response.status} without JSON` }; }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

/**
 * Open a server-sent event stream; handlers maps event names to functions of the parsed data.
 * Returns a function that closes the stream (the server then cancels the work).
 */
export function openStream(path, params, handlers) {
  const source = new EventSource(`${path}?${query(params)}`);
  let finished = false;
  for (const [name, handler] of Object.entries(handlers)) {
    if (name === "failed") continue;
    source.addEventListener(name, (event) => handler(JSON.parse(event.data)));
  }
  const close = () => { finished = true; source.close(); };
  source.addEventListener("end", close);
  source.addEventListener("error", (event) => {
    if (event.data) {
      const error = JSON.parse(event.data).error;
      close();
      (handlers.failed || showMessage)(error);
    } else if (!finished) {
      close();  // the connection broke (or the request was refused before the stream began)
      (handlers.failed || showMessage)("the analysis stream stopped: the request was refused or the server went away");
    }
  });
  return close;
}
