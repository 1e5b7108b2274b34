// The replay viewer, 2 of 4: the data, the words, building nodes, what the viewer knows.
// werewolf/replay/page.py puts the four parts, in this order, into one function: they
// share its scope. The viewer reads the page data (JSON in #game-data), never HTML: every
// text goes into the page through textContent, so nothing from a game can become markup.
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const god = data.view.kind === "god";
  let lang = pick("werewolf-lang", data.game.lang === "zh" ? "zh" : "en");

  function pick(key, fallback) {
    try { return localStorage.getItem(key) || fallback; } catch (e) { return fallback; }
  }
  function keep(key, value) {
    try { localStorage.setItem(key, value); } catch (e) { /* file:// may refuse storage */ }
  }
  function t(key, ...args) {
    const text = LABELS[lang][key] ?? LABELS.en[key] ?? key;
    return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)]));
  }
  // what the registry declares (kinds, causes of death, identities) comes with the data
  function named(group, key) {
    const words = data.labels || {};
    return (words[lang] || {})[group]?.[key] ?? (words.en || {})[group]?.[key] ?? null;
  }
  function roleName(identity) { return named("identities", identity) ?? identity; }
  function fateText(how, day) { return (named("causes", how) ?? how).replace(/\{0\}/g, String(day)); }
  function meaningOf(e) { return e.meaning || { deaths: [], revealed: [] }; }
  function teamOf(what) {  // a card shown, or a side shown
    return what === "wolves" || what === "good" ? what : (data.labels?.teams || {})[what];
  }

  // -- building the page with text nodes only -------------------------------------------
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (key === "class") node.className = value;
      else if (key === "data") Object.assign(node.dataset, value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // -- what the viewer knows, as of a step ----------------------------------------------
  const cast = data.cast;
  const names = Object.fromEntries(cast.map((c) => [c.seat, c.name]));
  let known = {};   // seat -> identity, as of the current step
  let teams = {};   // seat -> team, as of the current step

  function knowledgeAt(limit) {
    known = {}; teams = {};
    for (const c of cast) if (c.identity) { known[c.seat] = c.identity; teams[c.seat] = c.team; }
    for (const e of data.entries.slice(0, limit)) {
      for (const [seat, what] of meaningOf(e).revealed) {  // what the entry showed its viewer
        if (what !== "wolves" && what !== "good") known[seat] = known[seat] || what;
        teams[seat] = teams[seat] || teamOf(what);
      }
    }
  }

  function deathsUntil(limit) {
    const dead = new Set();
    for (const e of data.entries.slice(0, limit)) for (const [seat] of meaningOf(e).deaths) dead.add(seat);
    return dead;
  }

  // a team told by a mark as well as a colour; the mark's meaning is in its title
  const MARKS = { wolves: "\u25B2", good: "\u25CB" };
  function teamMark(team) {
    return MARKS[team] ? el("span", { class: "mark", title: t(team) }, MARKS[team]) : null;
  }
  // a seat: its number and name (a long name cut short, the whole of it on hover)
  function chip(seat) {
    if (seat === null || seat === undefined) return el("span", { class: "chip" }, t("nobody"));
    const team = teams[seat];
    const cls = "chip" + (team ? " team-" + team : "") + (focus === seat ? " me" : "");
    const full = `${seat} ${names[seat] ?? "?"}`;
    return el("span", { class: cls, title: team ? `${full} · ${t(team)}` : full, data: { seat: String(seat) } },
      el("span", { class: "who" }, full), teamMark(team));
  }
  function chips(seats) {
    if (!seats || !seats.length) return [el("span", { class: "chip" }, t("nobody"))];
    return seats.flatMap((s, i) => (i ? [" ", chip(s)] : [chip(s)]));
  }
  function withRole(seat) {
    const role = god && known[seat] ? el("span", { class: "role" }, roleName(known[seat])) : null;
    return [chip(seat), role];
  }

  // -- sections (the timeline's steps) -------------------------------------------------
  let steps = [];
  function buildSteps() {
    const order = [];
    const bySection = new Map();
    data.entries.forEach((e, i) => {
      if (!bySection.has(e.section)) { bySection.set(e.section, []); order.push(e.section); }
      bySection.get(e.section).push(i);
    });
    if (!order.length) order.push("n1"), bySection.set("n1", []);
    steps = order.map((s) => ({ id: s, night: s[0] === "n", n: Number(s.slice(1)), items: bySection.get(s) }));
  }
  function stepLabel(s) { return t(s.night ? "night" : "day", s.n); }
  function stepEnd(index) { const items = steps[index].items; return items.length ? items[items.length - 1] + 1 : 0; }

