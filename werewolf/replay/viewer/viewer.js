// The replay viewer, 4 of 4: the page, stepping through it, following a live game.
// werewolf/replay/page.py puts the four parts, in this order, into one function: they
// share its scope. The viewer reads the page data (JSON in #game-data), never HTML: every
// text goes into the page through textContent, so nothing from a game can become markup.

  // -- the page -------------------------------------------------------------------------
  let current = 0;   // the step (a night or a day) shown
  let cursor = -1;   // the item of that step stepped to (-1: none, the step as a whole)
  let focus = null;
  let timer = null;  // autoplay
  const $ = (id) => document.getElementById(id);

  function rulesOf(l) {  // {line, text} in the language shown (page.py words both)
    const rules = data.game.rules;
    if (typeof rules === "string") return { line: rules, text: [] };
    return (rules || {})[l] || (rules || {}).en || { line: "", text: [] };
  }
  function playersLine() {  // who plays the seats, e.g. "llm:gpt-4o ×4 · mock ×5"
    const counts = new Map();
    for (const p of data.game.players || []) counts.set(p, (counts.get(p) || 0) + 1);
    return [...counts].map(([p, n]) => (n > 1 ? `${p} \u00d7${n}` : p)).join(" · ");
  }

  function renderHeader() {
    document.documentElement.lang = lang === "zh" ? "zh" : "en";
    $("title").textContent = t("title");
    // a seat or public page of a game in progress has no seed: it would give the deal
    const seed = data.game.seed === null ? "" : ` · ${t("seed", data.game.seed)}`;
    const rules = rulesOf(lang);
    $("rules").textContent = `${t("game", data.game.id)} · ${rules.line}${seed}`;
    $("rules-title").textContent = t("rules");
    $("rules-text").replaceChildren(...rules.text.map((p) => el("p", {}, p)));
    const run = data.game.arena;
    const arena = !run ? [] : data.home
      ? [" · ", el("a", { href: `${data.home.replace(/\/$/, "")}/arena/${encodeURIComponent(run)}` }, t("arena_run", run))]
      : [" · ", t("arena_run", run)];
    const players = playersLine();
    $("players").replaceChildren(...(players ? [`${t("players")}: ${players}`] : []), ...arena);
    $("players").hidden = !players && !run;
    $("view").textContent = data.view.kind === "seat" ? t("seat_view", data.view.seat) : t(data.view.kind);
    $("filter-label").textContent = t("filter");
    $("lang").textContent = t("lang");
    $("lang").lang = lang === "zh" ? "en" : "zh";  // the button names the other language
    $("theme").textContent = t("theme");
    $("cast-title").textContent = t("cast");
    $("legend").textContent = t("legend");
    $("steps").setAttribute("aria-label", t("steps_label"));
    for (const [id, key] of [["prev", "prev_step"], ["next", "next_step"], ["prev-event", "prev_event"], ["next-event", "next_event"]]) {
      $(id).setAttribute("aria-label", t(key));
      $(id).title = t(key);
    }
    $("speed-label").textContent = t("speed");
    $("play").textContent = (timer ? "\u275a\u275a " : "\u25b6 ") + t(timer ? "pause" : "play");
    const select = $("seat-filter");
    select.replaceChildren(el("option", { value: "" }, t("all_seats")), ...cast.map((c) => el("option", { value: String(c.seat) }, `${c.seat} ${c.name}`)));
    select.value = focus === null ? "" : String(focus);
    $("cast-head").replaceChildren(...["c_seat", "c_name", "c_role", "c_fate"].map((k) => el("th", {}, t(k))));
    if (data.live) $("live").textContent = data.ended ? t("ended_live") : "● " + t("live");
    if (data.views) {  // served: other views of this game, and the way back to the list
      const views = $("views");
      views.hidden = false;
      const label = (v) => (v.kind === "seat" ? t("seat_n", v.seat) : t(v.kind + "_view"));
      views.replaceChildren(...data.views.map((v) => el("option", { value: v.href, ...(v.current ? { selected: "" } : {}) }, label(v))));
      $("view").hidden = true;
    }
    if (data.home) { $("home").hidden = false; $("home").href = data.home; $("home").textContent = "← " + t("games"); }
  }

  // a focused control about to be disabled hands its focus to the step shown, so the
  // keyboard never lands on <body>
  function disable(id, off) {
    const button = $(id);
    if (off && document.activeElement === button) $("steps").querySelector('[aria-current="step"]')?.focus();
    button.disabled = off;
  }

  function renderSteps() {
    const list = $("steps");
    const labels = steps.map(stepLabel);
    const buttons = [...list.querySelectorAll("button[data-step]")];
    // rebuilt only when the steps change (a live game, the language): a button that has
    // the focus stays in the page
    if (buttons.length !== labels.length || buttons.some((b, i) => b.textContent !== labels[i])) {
      const had = list.contains(document.activeElement);
      list.replaceChildren(...steps.map((s, i) => el("li", {}, el("button", {
        type: "button", class: s.night ? "night" : "day", data: { step: String(i) },
      }, labels[i]))));
      if (had) list.querySelectorAll("button")[current]?.focus();
    }
    list.querySelectorAll("button[data-step]").forEach((b, i) => {
      if (i === current) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    const active = list.querySelector('[aria-current="step"]');
    if (active && active.scrollIntoView) active.scrollIntoView({ block: "nearest", inline: "nearest" });
    const items = groupsOf(steps[current]).length;
    if (document.activeElement?.dataset?.step !== undefined && active !== document.activeElement) active.focus();
    disable("prev", current === 0);
    disable("next", current >= steps.length - 1);
    disable("prev-event", current === 0 && cursor <= 0);
    disable("next-event", current >= steps.length - 1 && cursor >= items - 1);
  }

  function renderCast() {
    const limit = stepEnd(current);
    const dead = deathsUntil(limit);
    const sheriff = sheriffUntil(limit);
    const players = data.game.players || [];
    const rows = cast.map((c) => {
      const identity = known[c.seat];
      const team = teams[c.seat];
      const death = data.fates[c.seat];
      const fate = !dead.has(c.seat) ? t("alive") : death ? fateText(death.how, death.day) : "†";
      const cls = [dead.has(c.seat) ? "dead" : "", focus === c.seat ? "focus" : ""].join(" ").trim();
      const player = players[c.seat - 1];
      return el("tr", { class: cls, data: { seat: String(c.seat) } },
        el("td", {}, String(c.seat)),
        el("td", { class: "name" + (team ? " team-" + team : "") },
          el("span", { class: "full", title: c.name }, c.name), teamMark(team),
          sheriff === c.seat ? [" ", starOf()] : null,
          player ? el("div", { class: "player", title: `${t("c_player")}: ${player}` }, player) : null),
        el("td", { class: team ? "team-" + team : "" }, identity ? roleName(identity) : t("unknown")),
        el("td", {}, fate));
    });
    $("cast").tBodies[0].replaceChildren(...rows);
  }

  // the items of a step: each entry, a floor bid joined to the speech it gave the floor to
  function groupsOf(step) {
    const out = [];
    const items = step.items;
    for (let k = 0; k < items.length; k++) {
      const e = data.entries[items[k]];
      const next = data.entries[items[k + 1]];
      if (e.phase === "floor-bid" && next && next.phase === "day-speech" && next.diff.speaker === e.diff.floor) {
        out.push({ entry: items[k + 1], bid: items[k] });
        k++;
      } else {
        out.push({ entry: items[k], bid: null });
      }
    }
    return out;
  }

  function renderSection() {
    const step = steps[current];
    knowledgeAt(stepEnd(current));
    const title = $("section-title");
    title.textContent = stepLabel(step);
    title.className = step.night ? "night" : "day";
    const nodes = groupsOf(step).map((g) => entryNode(data.entries[g.entry], g.bid === null ? null : data.entries[g.bid]));
    if (!nodes.length) nodes.push(el("p", { class: "empty" }, t("empty")));
    if (current === steps.length - 1 && !data.ended && !data.live) nodes.push(el("p", { class: "empty" }, t("unfinished")));
    $("section-body").replaceChildren(...nodes);
    $("position").textContent = t("step", current + 1, steps.length);
    applyFilter();
  }

  function applyFilter() {
    for (const item of document.querySelectorAll("#section-body .item")) {
      const seats = (item.dataset.seats || "").split(" ").filter(Boolean).map(Number);
      item.classList.toggle("dim", focus !== null && !seats.includes(focus));
      item.classList.toggle("hl", focus !== null && seats.includes(focus));
    }
  }

  // the item stepped to: marked, in view, its anchor in the address, told to a screen reader
  function markCursor(scroll) {
    const items = [...document.querySelectorAll("#section-body .item")];
    items.forEach((node, i) => node.classList.toggle("current", i === cursor));
    const node = items[cursor];
    const where = `${stepLabel(steps[current])} (${current + 1}/${steps.length})`;
    $("event-position").textContent = node ? t("event_of", cursor + 1, items.length) : "";
    if (node) {
      if (scroll && node.scrollIntoView) node.scrollIntoView({ block: "nearest" });
      const first = (node.firstElementChild?.textContent || "").replace(/\s+/g, " ").trim().slice(0, 160);
      $("announce").textContent = `${where} · ${t("event_of", cursor + 1, items.length)}: ${first}`;
    } else {
      $("announce").textContent = where;
    }
    const anchor = node ? node.id : steps[current].id;
    try {
      if (location.hash !== "#" + anchor) history.replaceState(null, "", "#" + anchor);
    } catch (e) { /* an address that refuses a fragment keeps its own */ }
  }

  function render(scroll) {
    knowledgeAt(stepEnd(current));
    renderHeader();
    renderSteps();
    renderCast();
    renderSection();
    markCursor(scroll);
  }

  function go(index, at) {
    const next = Math.max(0, Math.min(steps.length - 1, index));
    const item = at === undefined ? -1 : at;
    if (next === current && item === cursor) return;
    current = next;
    cursor = item;
    render(item >= 0);
  }

  // per item: on to the next (or back), across nights and days; false at either end
  function stepItem(delta) {
    const count = groupsOf(steps[current]).length;
    const to = cursor + delta;
    if (to >= 0 && to < count) { cursor = to; renderSteps(); markCursor(true); return true; }
    if (delta > 0 && current < steps.length - 1) { go(current + 1, 0); return true; }
    if (delta < 0 && current > 0) { go(current - 1, groupsOf(steps[current - 1]).length - 1); return true; }
    return false;
  }

  function play(on) {
    if (timer) clearInterval(timer);
    timer = on ? setInterval(() => { if (!stepItem(1)) play(false); }, 2000 / Number($("speed").value)) : null;
    $("play").setAttribute("aria-pressed", on ? "true" : "false");
    $("play").textContent = (on ? "\u275a\u275a " : "\u25b6 ") + t(on ? "pause" : "play");
  }

  // an address's fragment: #n1, #d2 (a night or a day), #e37 (an event: its number, v)
  function openAnchor(hash) {
    const id = (hash || "").replace(/^#/, "");
    const stepAt = steps.findIndex((s) => s.id === id);
    if (stepAt >= 0) { current = -1; go(stepAt, -1); return true; }
    const found = /^e(\d+)$/.exec(id);
    if (!found) return false;
    const index = data.entries.findIndex((e) => e.v === Number(found[1]));
    const at = steps.findIndex((s) => s.items.includes(index));
    if (index < 0 || at < 0) return false;
    const item = groupsOf(steps[at]).findIndex((g) => g.entry === index || g.bid === index);
    current = -1;  // drawn afresh, whatever was shown
    go(at, item);
    return true;
  }

  $("prev").addEventListener("click", () => go(current - 1));
  $("next").addEventListener("click", () => go(current + 1));
  $("prev-event").addEventListener("click", () => stepItem(-1));
  $("next-event").addEventListener("click", () => stepItem(1));
  $("play").addEventListener("click", () => play(!timer));
  $("speed").addEventListener("change", () => { if (timer) play(true); });
  $("steps").addEventListener("click", (ev) => {
    const button = ev.target.closest("button[data-step]");
    if (button) go(Number(button.dataset.step));
  });
  document.addEventListener("keydown", (ev) => {
    const target = ev.target;
    if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 };
    if (ev.key in moves) { ev.preventDefault(); go(moves[ev.key]); return; }
    const key = ev.key.toLowerCase();
    if (key === "j") { ev.preventDefault(); stepItem(1); } else if (key === "k") { ev.preventDefault(); stepItem(-1); } else if (key === "p") { ev.preventDefault(); play(!timer); }
  });
  window.addEventListener("hashchange", () => openAnchor(location.hash));
  $("seat-filter").addEventListener("change", (ev) => {
    focus = ev.target.value === "" ? null : Number(ev.target.value);
    render(false);
  });
  $("views").addEventListener("change", (ev) => { location.href = ev.target.value; });
  $("lang").addEventListener("click", () => { lang = lang === "en" ? "zh" : "en"; keep("werewolf-lang", lang); render(false); });
  $("theme").addEventListener("click", () => {
    const root = document.documentElement;
    const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.theme = dark ? "light" : "dark";
    keep("werewolf-theme", root.dataset.theme);
  });
  const theme = pick("werewolf-theme", "");
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;

  // -- following a live game (werewolf serve): new entries arrive as server-sent events --
  if (data.live && !data.ended && typeof EventSource !== "undefined") {
    $("live").hidden = false;
    const source = new EventSource(data.live.stream);
    source.addEventListener("entries", (ev) => {
      const update = JSON.parse(ev.data);
      const atEnd = current >= steps.length - 1;
      data.entries.push(...update.entries);
      data.fates = update.fates;
      data.ended = update.ended;
      if (update.views) data.views = update.views;  // an ended game opens every view
      buildSteps();
      if (atEnd && current !== steps.length - 1) { current = steps.length - 1; cursor = -1; }
      if (data.ended) source.close();
      render(false);
    });
    source.addEventListener("gone", () => source.close());
  } else if (data.live) {
    $("live").hidden = false;
  }

  if (matchMedia("(max-width: 760px)").matches) $("cast-panel").open = false;
  buildSteps();
  if (data.start_day) current = Math.max(0, steps.findIndex((s) => s.n >= data.start_day));
  if (!openAnchor(location.hash)) render(false);
  document.body.dataset.ready = "1";
