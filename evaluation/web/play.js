// pokerzoo play page: draws the server's scene for your seat and sends your moves (see cli/web_play.py).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  let busy = false;

  async function call(method, path, body) {
    const init = { method, headers: { "Content-Type": "application/json" } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(path, init);
    const data = await response.json();
    if (!response.ok) throw data;
    return data;
  }

  function show(state) {
    PZ.render($("pz-stage"), state.scene, { labels: state.labels, totals: state.totals });
    $("pz-title").textContent = `${state.game} · game ${state.number} · you are P${state.seat}`;
    $("pz-source").textContent = `histories: ${state.history} (${state.saved} saved)`;
    const moves = $("pz-moves");
    moves.replaceChildren();
    for (const [a, name] of state.legal) {
      const b = PZ.el("button", { class: "move", "data-action": a, type: "button" }, name);
      b.addEventListener("click", () => send({ action: a }));
      moves.appendChild(b);
    }
    $("pz-turn").textContent = state.over
      ? "game over — " + state.totals.map((r, s) => `P${s} ${PZ.signed(r)}`).join(", ")
      : state.your_turn ? `your turn: ${state.legal.length} legal moves` : "the agents are playing";
    $("pz-form").hidden = !state.your_turn;
    $("pz-new").hidden = !state.over;
    const log = $("pz-log");
    log.replaceChildren();
    for (const line of state.log) log.appendChild(PZ.el("li", {}, line));
    log.scrollTop = log.scrollHeight;
    document.body.dataset.over = state.over ? "1" : "0";
    document.body.dataset.number = String(state.number);
    document.body.dataset.ready = "1";
  }

  async function send(body, path) {
    if (busy) return;
    busy = true;
    document.body.dataset.ready = "0";
    try {
      show(await call("POST", path || "/api/act", body));
      $("pz-error").textContent = "";
    } catch (err) {
      $("pz-error").textContent = err && err.error ? err.error : String(err);
      document.body.dataset.ready = "1";
    } finally {
      busy = false;
    }
  }

  $("pz-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("pz-move").value;
    $("pz-move").value = "";
    send({ move: text });
  });
  $("pz-new").addEventListener("click", () => send({}, "/api/new"));
  call("GET", "/api/state").then(show, (err) => { $("pz-error").textContent = err.error || String(err); });
})();
