// pokerzoo scene renderer: draws one scene (pokerzoo.envs.engine.scene) as HTML with SVG cards.
// Shared by the hand-history viewer (viewer.js) and the play server's page (play.js); no network, no library.
"use strict";
const PZ = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  // Suit glyphs in a 100x100 box. s h d c: the French suits; m l b t q: Mexican poker's five suits.
  const SUITS = {
    s: { name: "spades", color: "#1b1b1b", path: "M50 6C30 32 8 46 12 66c3 15 22 20 34 8l-6 20h20l-6-20c12 12 31 7 34-8C92 46 70 32 50 6z" },
    h: { name: "hearts", color: "#c8102e", path: "M50 90C18 64 4 46 10 28 16 12 38 10 50 28 62 10 84 12 90 28 96 46 82 64 50 90z" },
    d: { name: "diamonds", color: "#c8102e", path: "M50 4 86 50 50 96 14 50z" },
    c: { name: "clubs", color: "#1b1b1b", path: "M50 8a19 19 0 0 1 17 28 19 19 0 1 1-5 32l6 24H32l6-24a19 19 0 1 1-5-32A19 19 0 0 1 50 8z" },
    m: { name: "Mariachi", color: "#c45c00", path: "M6 66c10 12 78 12 88 0-3-6-16-5-24-5-1-22-8-38-20-38S31 39 30 61c-8 0-21-1-24 5z" },
    l: { name: "Luchadores", color: "#6a1fb0", path: "M50 8C26 8 14 30 18 56c3 22 18 36 32 36s29-14 32-36C86 30 74 8 50 8zM28 44l16 4-2 10-14-4zm44 0-16 4 2 10 14-4zM40 72h20l-3 8H43z", rule: "evenodd" },
    b: { name: "Bandidos", color: "#17803a", path: "M50 4l12 32h34L68 56l11 34-29-21-29 21 11-34L4 36h34z" },
    t: { name: "Toreadores", color: "#9c1d12", path: "M6 18c4 30 20 44 44 44S90 48 94 18C84 38 70 46 50 46S16 38 6 18zM36 56h28l-4 34H40z" },
    q: { name: "Conquistadores", color: "#1f55a3", path: "M8 66c20-10 64-10 84 0l-4 8C68 66 32 66 12 74zM26 62c0-28 10-46 24-50 14 4 24 22 24 50z" },
  };
  const STAR = "M50 4l12 32h34L68 56l11 34-29-21-29 21 11-34L4 36h34z";

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function glyph(path, color, x, y, size, rule) {
    return svg("path", { d: path, fill: color, transform: `translate(${x} ${y}) scale(${size / 100})`, "fill-rule": rule || "nonzero" });
  }
  const RANK_TEXT = { T: "10" };

  // One card: {c, r, s} face up, {c, j} a joker, {down: 1} face down; wild, corners, print, tag, hi optional.
  function card(c) {
    const box = el("span", { class: "cardbox" });
    const pic = svg("svg", { class: "card", viewBox: "0 0 50 70", width: 50, height: 70 });
    box.appendChild(pic);
    if (c.down) {
      pic.classList.add("down");
      pic.setAttribute("data-card", "down");
      pic.appendChild(svg("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#23508f", stroke: "#0e2a52" }));
      pic.appendChild(svg("rect", { x: 5, y: 5, width: 40, height: 60, rx: 3, fill: "none", stroke: "#e8eef8", "stroke-width": 1.2 }));
      for (const [dx, dy] of [[0, 0], [0, -14], [0, 14], [-10, 0], [10, 0]]) {
        pic.appendChild(svg("path", { d: `M${25 + dx} ${23 + dy}l8 12-8 12-8-12z`, fill: "#3f6fb5", stroke: "#e8eef8", "stroke-width": 0.8 }));
      }
      pic.appendChild(svg("title", {}, "face down"));
    } else {
      pic.setAttribute("data-card", c.c);
      const wild = !!c.wild;
      pic.appendChild(svg("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fffdf7", stroke: wild ? "#d49a00" : "#6b6b6b", "stroke-width": wild ? 3 : 1 }));
      if (c.j) {
        pic.classList.add("joker");
        const color = c.j === "red" ? "#c8102e" : "#1b1b1b";
        pic.appendChild(svg("text", { x: 4, y: 13, "font-size": 9, "font-weight": "bold", fill: color }, "JKR"));
        pic.appendChild(glyph(STAR, color, 10, 20, 30));
        if (c.print) pic.appendChild(svg("text", { x: 25, y: 64, "font-size": 8, "text-anchor": "middle", fill: color }, `${c.print}`));
        pic.appendChild(svg("title", {}, `${c.j} joker${c.print ? ` (the ${c.print} plays it)` : ""}${wild ? ", wild" : ""}`));
      } else {
        const suit = SUITS[c.s] || { name: c.s, color: "#444", path: STAR };
        const rank = RANK_TEXT[c.r] || c.r;
        pic.appendChild(svg("text", { x: 4, y: 14, "font-size": 12, "font-weight": "bold", fill: suit.color, "font-family": "DejaVu Sans, Arial, sans-serif" }, rank));
        pic.appendChild(glyph(suit.path, suit.color, 4, 17, 10, suit.rule));
        pic.appendChild(glyph(suit.path, suit.color, 13, 25, 26, suit.rule));
        let title = `${rank} of ${suit.name}`;
        if (c.corners) {
          pic.classList.add("cornered");
          pic.appendChild(svg("rect", { x: 33, y: 2, width: 15, height: 19, rx: 3, fill: "#f1e7c8" }));
          pic.appendChild(svg("text", { x: 40.5, y: 10, "font-size": 7.5, "text-anchor": "middle", fill: "#333" }, c.corners[0]));
          pic.appendChild(svg("text", { x: 40.5, y: 19, "font-size": 7.5, "text-anchor": "middle", fill: "#333" }, c.corners[1]));
          title += ` (board ${c.corners[0]}, hand ${c.corners[1]})`;
        }
        pic.appendChild(svg("title", {}, title + (wild ? ", wild" : "")));
      }
      if (wild) {
        pic.classList.add("wild");
        pic.appendChild(svg("rect", { x: 6, y: 56, width: 38, height: 10, rx: 2, fill: "#d49a00" }));
        pic.appendChild(svg("text", { x: 25, y: 64, "font-size": 7.5, "font-weight": "bold", "text-anchor": "middle", fill: "#fff" }, "WILD"));
      }
    }
    if (c.hi) box.classList.add("hi");
    if (c.tag) box.appendChild(el("span", { class: "tag" }, c.tag));
    return box;
  }

  function row(r) {
    const node = el("div", { class: "row", "data-row": r.label });
    node.appendChild(el("span", { class: "label" }, r.label));
    const cards = el("span", { class: "cards" });
    for (const c of r.cards || []) cards.appendChild(card(c));
    node.appendChild(cards);
    if (r.note) node.appendChild(el("span", { class: "note" }, r.note));
    return node;
  }

  function facts(list, cls) {
    const node = el("div", { class: cls || "facts" });
    for (const [k, v] of list) {
      const f = el("span", { class: "fact", "data-fact": k });
      f.appendChild(el("b", {}, k));
      f.appendChild(el("span", { class: "value" }, v));
      node.appendChild(f);
    }
    return node;
  }

  function signed(x) {
    const v = Number(x);
    return (v > 0 ? "+" : "") + (Math.round(v * 1e4) / 1e4);
  }

  // opts: {labels: [agent per seat], totals: [reward so far per seat], paid: [rewards just paid]}
  function seat(s, opts) {
    const node = el("section", { class: "seat", "data-seat": s.seat });
    for (const m of s.marks) node.classList.add(m.replace(/ /g, "-"));
    if (s.out) node.classList.add("out");
    const head = el("header");
    const label = (opts.labels && opts.labels[s.seat]) ? ` · ${opts.labels[s.seat]}` : "";
    head.appendChild(el("span", { class: "name" }, `P${s.seat}${label}`));
    for (const m of s.marks) head.appendChild(el("span", { class: `mark ${m.replace(/ /g, "-")}` }, m));
    if (s.out) head.appendChild(el("span", { class: "mark out" }, s.out));
    node.appendChild(head);
    const list = s.facts.slice();
    if (opts.totals) {
      const paid = opts.paid && opts.paid[s.seat] ? ` (${signed(opts.paid[s.seat])})` : "";
      list.push(["reward", signed(opts.totals[s.seat]) + paid]);
    }
    node.appendChild(facts(list));
    for (const r of s.rows) node.appendChild(row(r));
    return node;
  }

  function table(t) {
    const wrap = el("div", { class: "sheet" });
    wrap.appendChild(el("h3", {}, t.title));
    const tab = el("table");
    const head = el("tr");
    for (const h of t.head) head.appendChild(el("th", {}, h));
    tab.appendChild(head);
    for (const r of t.rows) {
      const tr = el("tr");
      for (const x of r) tr.appendChild(el("td", {}, x));
      tab.appendChild(tr);
    }
    wrap.appendChild(tab);
    return wrap;
  }

  // Draw `scene` into `root` (emptied first). The viewer's seat (or seat 0) sits at the bottom.
  function render(root, scene, opts) {
    opts = opts || {};
    root.replaceChildren();
    const top = el("div", { class: "scene-head" });
    top.appendChild(el("h2", { class: "title" }, scene.title));
    top.appendChild(el("div", { class: "status" }, scene.status));
    root.appendChild(top);
    const felt = el("div", { class: "felt" });
    const near = scene.viewer === null || scene.viewer === undefined ? 0 : scene.viewer;
    const others = el("div", { class: "seats far" });
    const mine = el("div", { class: "seats near" });
    const n = scene.seats.length;
    for (let k = 1; k < n; k++) others.appendChild(seat(scene.seats[(near + k) % n], opts));
    if (n) mine.appendChild(seat(scene.seats[near % n], opts));
    const center = el("div", { class: "center" });
    for (const r of scene.center) center.appendChild(row(r));
    if (scene.facts.length) center.appendChild(facts(scene.facts, "facts table-facts"));
    if (n > 1) felt.appendChild(others);
    felt.appendChild(center);
    felt.appendChild(mine);
    root.appendChild(felt);
    if (scene.last) {
      const last = el("div", { class: "last" });
      last.appendChild(el("h3", {}, scene.last.title));
      for (const r of scene.last.rows) last.appendChild(row(r));
      root.appendChild(last);
    }
    for (const t of scene.tables) root.appendChild(table(t));
  }

  return { render, card, el, signed, SUITS };
})();
