// pokerzoo hand-history viewer: the game list, the step controls, the viewpoint selector, narration and decisions.
// Each game's timeline (pokerzoo.evaluation.timeline) is embedded gzip-compressed and base64-encoded, and
// unpacked in the browser (DecompressionStream) only when the game is opened.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const meta = JSON.parse($("pz-meta").textContent);
  const LOG_LINES = 300;
  const S = { game: -1, tl: null, step: 0, vp: null, timer: null };

  async function unpack(i) {
    const text = $(`pz-blob-${i}`).textContent.trim();
    const bytes = Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function vpLabel(tl, key) {
    if (key === "all") return "all cards";
    return `P${key} · ${tl.labels[Number(key)]} (as that seat saw it)`;
  }

  function fmt(x, kind) {
    if (kind === "probabilities") return (100 * x).toFixed(1) + "%";
    return (Math.round(x * 1000) / 1000).toString();
  }

  function decisionPanel(step, view) {
    const box = $("pz-decision");
    box.replaceChildren();
    if (step.actor === null || step.actor === undefined) {
      box.appendChild(PZ.el("div", {}, "game over"));
      return;
    }
    if (!view.legal) {
      box.appendChild(PZ.el("div", {}, `P${step.actor} to act; its options are not shown to this seat`));
      return;
    }
    const d = view.decision || null;
    const value = new Map();
    if (d) d.actions.forEach((a, i) => value.set(a, d.values[i]));
    const head = d ? (d.kind === "probabilities" ? "the policy's probabilities" : "search values") : "no details recorded for this decision";
    box.appendChild(PZ.el("div", { class: "decision-kind" }, `P${step.actor} (${S.tl.labels[step.actor]}) — ${view.legal.length} legal; ${head}`));
    if (d && d.note) box.appendChild(PZ.el("div", { class: "note" }, d.note));
    const values = d ? d.values : [];
    const top = Math.max(1e-9, ...values.map(Math.abs));
    const tab = PZ.el("table");
    const rows = view.legal.slice();
    if (d) rows.sort((a, b) => (value.has(b[0]) ? value.get(b[0]) : -Infinity) - (value.has(a[0]) ? value.get(a[0]) : -Infinity));
    for (const [a, name] of rows) {
      const tr = PZ.el("tr", { "data-action": a });
      if (a === view.action) tr.classList.add("chosen");
      tr.appendChild(PZ.el("td", {}, (a === view.action ? "▶ " : "") + name));
      const cell = PZ.el("td", { class: "value" });
      if (value.has(a)) {
        const v = value.get(a);
        cell.textContent = fmt(v, d.kind);
        const bar = PZ.el("div", { class: v < 0 ? "bar neg" : "bar" });
        bar.style.width = `${Math.round((60 * Math.abs(v)) / (d.kind === "probabilities" ? 1 : top))}px`;
        tr.appendChild(cell);
        const bc = PZ.el("td");
        bc.appendChild(bar);
        tr.appendChild(bc);
      } else {
        tr.appendChild(cell);
      }
      tab.appendChild(tr);
    }
    box.appendChild(tab);
  }

  function draw() {
    const tl = S.tl;
    const last = tl.steps.length - 1;
    S.step = Math.max(0, Math.min(S.step, last));
    const step = tl.steps[S.step];
    const view = step.views[S.vp];
    PZ.render($("pz-stage"), view.scene, { labels: tl.labels, totals: step.totals, paid: step.paid });
    $("pz-step").textContent = `step ${S.step} / ${last}`;
    $("pz-slider").max = last;
    $("pz-slider").value = S.step;
    const log = $("pz-log");
    log.replaceChildren();
    const from = Math.max(0, S.step - LOG_LINES);  // the latest actions; a classic Raspisnoy game has 2,500
    log.start = from + 1;
    for (let k = from; k < S.step; k++) log.appendChild(PZ.el("li", {}, tl.steps[k].views[S.vp].say));
    const next = step.views[S.vp].say;
    $("pz-say").textContent = S.step < last ? `next: ${next}` : next;
    log.scrollTop = log.scrollHeight;
    decisionPanel(step, view);
    document.body.dataset.step = String(S.step);
    document.body.dataset.viewpoint = S.vp;
    document.body.dataset.ready = "1";
  }

  function go(k) { S.step = k; draw(); }
  function stop() { if (S.timer) clearInterval(S.timer); S.timer = null; $("pz-play").textContent = "▶ play"; }
  function play() {
    if (S.timer) return stop();
    if (S.step >= S.tl.steps.length - 1) S.step = 0;
    $("pz-play").textContent = "❚❚ pause";
    S.timer = setInterval(() => {
      if (S.step >= S.tl.steps.length - 1) return stop();
      go(S.step + 1);
    }, Number($("pz-speed").value) || 700);
  }

  async function open(i) {
    stop();
    document.body.dataset.ready = "0";
    const tl = await unpack(i);
    S.game = i;
    S.tl = tl;
    const sel = $("pz-viewpoint");
    sel.replaceChildren();
    for (const key of tl.viewpoints) sel.appendChild(PZ.el("option", { value: key }, vpLabel(tl, key)));
    if (!tl.viewpoints.includes(S.vp)) {
      // a game played through `pokerzoo serve` / `play` opens as the human saw it; others with all cards
      const human = tl.human_seat !== undefined ? String(tl.human_seat) : null;
      S.vp = human !== null && tl.viewpoints.includes(human) ? human : tl.viewpoints.includes("all") ? "all" : tl.viewpoints[0];
    }
    sel.value = S.vp;
    const g = meta.games[i];
    const where = g.line !== null ? `line ${g.line}` : "";
    $("pz-title").textContent = `${tl.game} · ${where} · seed ${tl.seed}`;
    $("pz-replay").textContent = tl.replay === "ok" ? "" : `replay mismatch: ${tl.replay}`;
    for (const tr of document.querySelectorAll("#pz-games tr[data-game]")) tr.classList.toggle("selected", Number(tr.dataset.game) === i);
    S.step = 0;
    draw();
  }

  function outcomeText(g) {
    if (g.outcome === "win" || g.outcome === "loss" || g.outcome === "push") return g.outcome;
    if (g.outcome === "tie") return "tie: " + g.winners.map((s) => `P${s}`).join(", ");
    return `P${g.winners[0]} (${g.seats[g.winners[0]] || "?"}) won`;
  }

  function matches(g, agent, outcome) {
    const mine = g.seats.map((a, s) => (a === agent ? s : -1)).filter((s) => s >= 0);
    if (agent && !mine.length) return false;
    const won = agent ? mine.some((s) => g.winners.includes(s)) && g.outcome !== "tie" : g.winners.length > 0 && g.outcome !== "tie";
    const tie = g.outcome === "tie" || g.outcome === "push";
    if (outcome === "won") return won;
    if (outcome === "lost") return !won && !tie;
    if (outcome === "tie") return tie;
    return true;
  }

  function list() {
    const agent = $("pz-filter-agent").value;
    const outcome = $("pz-filter-outcome").value;
    const body = $("pz-games");
    body.replaceChildren();
    let shown = 0;
    meta.games.forEach((g, i) => {
      if (!matches(g, agent, outcome)) return;
      shown += 1;
      const tr = PZ.el("tr", { "data-game": i, "data-outcome": g.outcome });
      if (i === S.game) tr.classList.add("selected");
      const name = g.deal !== undefined ? `deal ${g.deal}.${g.seating}` : `line ${g.line}`;
      tr.appendChild(PZ.el("td", {}, name));
      tr.appendChild(PZ.el("td", {}, g.seats.join(", ")));
      tr.appendChild(PZ.el("td", {}, g.rewards.map(PZ.signed).join(" ")));
      tr.appendChild(PZ.el("td", {}, outcomeText(g)));
      tr.addEventListener("click", () => open(i));
      body.appendChild(tr);
    });
    $("pz-count").textContent = `${shown} of ${meta.games.length} games` + (meta.total > meta.games.length ? ` (the file holds ${meta.total}; see --max-games)` : "");
  }

  function setup() {
    $("pz-source").textContent = meta.source;
    const agents = [...new Set(meta.games.flatMap((g) => g.seats))].sort();
    const sel = $("pz-filter-agent");
    sel.appendChild(PZ.el("option", { value: "" }, "any agent"));
    for (const a of agents) sel.appendChild(PZ.el("option", { value: a }, a));
    sel.addEventListener("change", list);
    $("pz-filter-outcome").addEventListener("change", list);
    $("pz-list").hidden = meta.games.length < 2;
    $("pz-first").addEventListener("click", () => { stop(); go(0); });
    $("pz-back").addEventListener("click", () => { stop(); go(S.step - 1); });
    $("pz-next").addEventListener("click", () => { stop(); go(S.step + 1); });
    $("pz-last").addEventListener("click", () => { stop(); go(S.tl.steps.length - 1); });
    $("pz-play").addEventListener("click", play);
    $("pz-slider").addEventListener("input", (e) => { stop(); go(Number(e.target.value)); });
    $("pz-viewpoint").addEventListener("change", (e) => { S.vp = e.target.value; draw(); });
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
      const keys = { ArrowRight: () => go(S.step + 1), ArrowLeft: () => go(S.step - 1), Home: () => go(0), End: () => go(S.tl.steps.length - 1), " ": play };
      if (keys[e.key]) { e.preventDefault(); if (e.key !== " ") stop(); keys[e.key](); }
    });
    list();
    if (typeof DecompressionStream === "undefined") {
      $("pz-replay").textContent = "this browser cannot unpack the embedded games (no DecompressionStream): use a current Chromium, Firefox or Safari";
      return;
    }
    if (meta.games.length) open(0);
    else $("pz-replay").textContent = "no game matched";
  }
  setup();
})();
