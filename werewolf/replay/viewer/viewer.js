// The replay viewer, 4 of 4: the page, stepping through it, following a live game.
// werewolf/replay/page.py puts the four parts, in this order, into one function: they
// share its scope. The viewer reads the page data (JSON in #game-data), never HTML: every
// text goes into the page through textContent, so nothing from a game can become markup.

  // -- the page -------------------------------------------------------------------------
  let current = 0;
  let focus = null;
  const $ = (id) => document.getElementById(id);

  function renderHeader() {
    document.documentElement.lang = lang === "zh" ? "zh" : "en";
    $("title").textContent = t("title");
    // a seat or public page of a game in progress has no seed: it would give the deal
    const seed = data.game.seed === null ? "" : ` · ${t("seed", data.game.seed)}`;
    $("rules").textContent = `${t("game", data.game.id)} · ${data.game.rules}${seed}`;
    $("view").textContent = data.view.kind === "seat" ? t("seat_view", data.view.seat) : t(data.view.kind);
    $("filter-label").textContent = t("filter");
    $("lang").textContent = t("lang");
    $("theme").textContent = t("theme");
    $("cast-title").textContent = t("cast");
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

  function renderSteps() {
    $("steps").replaceChildren(...steps.map((s, i) => el("li", {}, el("button", {
      type: "button", class: s.night ? "night" : "day", data: { step: String(i) },
      ...(i === current ? { "aria-current": "step" } : {}),
    }, stepLabel(s)))));
    const active = $("steps").querySelector('[aria-current="step"]');
    if (active && active.scrollIntoView) active.scrollIntoView({ block: "nearest", inline: "nearest" });
    $("prev").disabled = current === 0;
    $("next").disabled = current >= steps.length - 1;
  }

  function renderCast() {
    const limit = stepEnd(current);
    const dead = deathsUntil(limit);
    const rows = cast.map((c) => {
      const identity = known[c.seat];
      const team = teams[c.seat];
      const death = data.fates[c.seat];
      const fate = !dead.has(c.seat) ? t("alive") : death ? fateText(death.how, death.day) : "†";
      const cls = [dead.has(c.seat) ? "dead" : "", focus === c.seat ? "focus" : ""].join(" ").trim();
      return el("tr", { class: cls, data: { seat: String(c.seat) } },
        el("td", {}, String(c.seat)),
        el("td", { class: "name" + (team ? " team-" + team : "") }, c.name),
        el("td", { class: team ? "team-" + team : "" }, identity ? roleName(identity) : t("unknown")),
        el("td", {}, fate));
    });
    $("cast").tBodies[0].replaceChildren(...rows);
  }

  function renderSection() {
    const step = steps[current];
    knowledgeAt(stepEnd(current));
    const title = $("section-title");
    title.textContent = stepLabel(step);
    title.className = step.night ? "night" : "day";
    const nodes = step.items.map((i) => entryNode(data.entries[i]));
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

  function render() {
    knowledgeAt(stepEnd(current));
    renderHeader();
    renderSteps();
    renderCast();
    renderSection();
  }

  function go(index) {
    const next = Math.max(0, Math.min(steps.length - 1, index));
    if (next === current) return;
    current = next;
    render();
  }

  $("prev").addEventListener("click", () => go(current - 1));
  $("next").addEventListener("click", () => go(current + 1));
  $("steps").addEventListener("click", (ev) => {
    const button = ev.target.closest("button[data-step]");
    if (button) go(Number(button.dataset.step));
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLSelectElement || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 };
    if (ev.key in moves) { ev.preventDefault(); go(moves[ev.key]); }
  });
  $("seat-filter").addEventListener("change", (ev) => {
    focus = ev.target.value === "" ? null : Number(ev.target.value);
    render();
  });
  $("views").addEventListener("change", (ev) => { location.href = ev.target.value; });
  $("lang").addEventListener("click", () => { lang = lang === "en" ? "zh" : "en"; keep("werewolf-lang", lang); render(); });
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
      if (atEnd) current = steps.length - 1;
      if (data.ended) source.close();
      render();
    });
    source.addEventListener("gone", () => source.close());
  } else if (data.live) {
    $("live").hidden = false;
  }

  if (matchMedia("(max-width: 760px)").matches) $("cast-panel").open = false;
  buildSteps();
  if (data.start_day) current = Math.max(0, steps.findIndex((s) => s.n >= data.start_day));
  render();
  document.body.dataset.ready = "1";
