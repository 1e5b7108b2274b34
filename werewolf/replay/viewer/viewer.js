// The replay viewer. It reads the page data (JSON in #game-data), never HTML: every text
// goes into the page through textContent, so nothing from a game can become markup.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const god = data.view.kind === "god";

  // -- labels, en and zh ------------------------------------------------------------------
  const LABELS = {
    en: {
      title: "Werewolf", game: "game {0}", seed: "seed {0}", god: "god view", public: "public view",
      seat_view: "seat {0}'s view", live: "live", ended_live: "game over",
      filter: "Highlight", all_seats: "every seat", lang: "中文", theme: "Light / dark",
      cast: "Cast", c_seat: "#", c_name: "Name", c_role: "Role", c_fate: "Fate",
      alive: "alive", unknown: "?", night: "Night {0}", day: "Day {0}",
      step: "{0} of {1} · ← → to step", empty: "Nothing this viewer saw here.",
      wolves_talk: "The wolves talk", proposals: "Proposals, round {0}", target: "Target",
      wolves_vote: "The wolves vote", ballots: "Ballots, in seat order", drawn_tie: "A tie, drawn at random among",
      drawn_none: "Nobody voted: drawn at random among", revealed: "Revealed",
      no_kill: "no kill", witch: "The witch", told: "was told the victim", told_none: "learned no victim",
      saves: "saves", poisons: "poisons", no_potion: "uses no potion", seer: "The seer",
      checks: "checks", is_wolf: "a WOLF", is_good: "good", dawn: "Dawn",
      died: "Died in the night", peaceful: "A peaceful night: nobody died.",
      last_words: "Last words", speech: "Speech", pk_speech: "PK speech",
      vote: "Day {0} vote", revote: "Day {0} PK re-vote", abstained: "abstained",
      tie: "Tie: a PK round follows between", exiled: "is exiled.", nobody_exiled: "Nobody is exiled.",
      hunter: "The hunter", shoots: "shows the hunter card and shoots", keeps: "keeps the bullet.",
      result: "Result", wolves_win: "The wolves win", good_wins: "The good side wins", draw: "A draw",
      survivors: "Survivors", nobody: "nobody", swap: "Seat swap", swap_text: "now played by {0} (was {1})",
      error: "The game stopped: phase {0} failed", resumed: "The game was resumed.",
      reasoning: "reasoning", fallback: "fallback", fell_back: "Fell back to the default after refused answers",
      exchange: "Model exchange: {0} attempt(s)", attempt: "attempt {0}", tokens: "{0} + {1} tokens",
      ms: "{0} ms", calls: "{0} call(s)", audience: "seen by {0}", unfinished: "The log ends here: the game is not over.",
      "wolf-talk": "wolf talk", "wolf-kill": "wolf kill", "last-words": "last words", hunter_d: "hunter",
      seen_by_all: "public",
      bids: "Bids for speech {0}", speaks: "speaks.", beliefs: "Day {0} beliefs: P(wolf) reported with the vote", by: "By",
      public_view: "public view", god_view: "god view", seat_n: "seat {0}",
      wolves: "wolves", good: "good", games: "games", guard_a: "The guard", doctor_a: "The doctor", protects: "protects", saved: "learns her protection saved",
      cupid_a: "Cupid", links: "links", and: "and", as_lovers: "as lovers.", lovers_told: "The lovers",
      learn: "learn of each other", with_cards: "with their cards", heartbreak: "dies of heartbreak.",
      reveals_idiot: "is exiled, reveals the idiot card and stays alive (no vote).", lovers_win: "Cupid and the lovers win",
    },
    zh: {
      title: "狼人杀", game: "对局 {0}", seed: "种子 {0}", god: "上帝视角", public: "公开视角",
      seat_view: "{0}号玩家视角", live: "直播中", ended_live: "已结束",
      filter: "高亮", all_seats: "所有玩家", lang: "English", theme: "明 / 暗",
      cast: "玩家", c_seat: "#", c_name: "名字", c_role: "身份", c_fate: "结局",
      alive: "存活", unknown: "?", night: "第{0}夜", day: "第{0}天",
      step: "{0} / {1} · ← → 翻页", empty: "此视角在这里什么也没看到。",
      wolves_talk: "狼人夜聊", proposals: "第{0}轮提议", target: "刀口",
      wolves_vote: "狼人投票", ballots: "按座位依次投票", drawn_tie: "平票，随机抽签于",
      drawn_none: "无人投票：随机抽签于", revealed: "公布身份",
      no_kill: "空刀", witch: "女巫", told: "得知刀口", told_none: "未得知刀口",
      saves: "救了", poisons: "毒了", no_potion: "未用药", seer: "预言家",
      checks: "查验", is_wolf: "狼人", is_good: "好人", dawn: "天亮了",
      died: "昨夜死亡", peaceful: "平安夜：无人死亡。",
      last_words: "遗言", speech: "发言", pk_speech: "PK 发言",
      vote: "第{0}天投票", revote: "第{0}天 PK 重投", abstained: "弃票",
      tie: "平票，进入 PK：", exiled: "被放逐。", nobody_exiled: "无人被放逐。",
      hunter: "猎人", shoots: "亮牌开枪带走", keeps: "没有开枪。",
      result: "结果", wolves_win: "狼人胜利", good_wins: "好人胜利", draw: "平局",
      survivors: "存活", nobody: "无人", swap: "换人", swap_text: "改由 {0} 操作（原为 {1}）",
      error: "对局中断：阶段 {0} 出错", resumed: "对局已恢复。",
      reasoning: "思路", fallback: "兜底", fell_back: "回答多次被拒，采用默认选项",
      exchange: "模型交互：{0} 次尝试", attempt: "第{0}次尝试", tokens: "{0} + {1} 词元",
      ms: "{0} 毫秒", calls: "{0} 次调用", audience: "可见：{0}", unfinished: "日志到此为止：对局未结束。",
      "wolf-talk": "狼人夜聊", "wolf-kill": "狼人刀人", "last-words": "遗言", hunter_d: "猎人开枪",
      seen_by_all: "公开",
      bids: "第{0}次发言竞言", speaks: "发言。", beliefs: "第{0}天投票时报告的狼人概率", by: "报告者",
      public_view: "公开视角", god_view: "上帝视角", seat_n: "{0}号玩家视角",
      wolves: "狼人阵营", good: "好人阵营", games: "对局列表", guard_a: "守卫", doctor_a: "医生", protects: "守护", saved: "得知其保护救下了",
      cupid_a: "丘比特", links: "连接", and: "和", as_lovers: "为情侣。", lovers_told: "情侣",
      learn: "互相得知", with_cards: "并知道身份", heartbreak: "殉情。",
      reveals_idiot: "被放逐，翻开白痴牌免死（此后无投票权）。", lovers_win: "丘比特与情侣胜利",
    },
  };
  const DECISIONS = { hunter: "hunter_d", speech: "speech_d", vote: "vote_d" };
  Object.assign(LABELS.en, { vote_d: "vote", speech_d: "speech" });
  Object.assign(LABELS.zh, { vote_d: "投票", speech_d: "发言" });
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

  function chip(seat) {
    if (seat === null || seat === undefined) return el("span", { class: "chip" }, t("nobody"));
    const team = teams[seat];
    const cls = "chip" + (team ? " team-" + team : "") + (focus === seat ? " me" : "");
    return el("span", { class: cls, data: { seat: String(seat) } }, `${seat} ${names[seat] ?? "?"}`);
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

  // -- decisions (god view): reasoning, exchanges, cost, fallback -----------------------
  function decisionNode(d) {
    const label = DECISIONS[d.decision] ? t(DECISIONS[d.decision]) : named("identities", d.decision) ?? t(d.decision);
    const summary = el("summary", {}, chip(d.seat), " ", label, " · ", t("reasoning"));
    if (d.usage) {
      const u = d.usage;
      summary.append(el("span", { class: "cost" },
        [t("tokens", u.prompt_tokens, u.completion_tokens), t("ms", Math.round(u.latency_ms)), t("calls", u.calls)].join(" · ")));
    }
    if (d.fallback) summary.append(el("span", { class: "tag fallback" }, t("fallback")));
    const body = [];
    if (d.fallback) body.push(el("p", { class: "problems" }, `${t("fell_back")}: ${d.fallback.reason ?? ""} (${d.fallback.key ?? ""})`));
    if (d.reasoning) body.push(el("p", { class: "reasoning" }, d.reasoning));
    if (d.exchanges && d.exchanges.length) body.push(exchangeNode(d.exchanges));
    const node = el("details", { class: "decision" + (d.fallback ? " fallback" : ""), data: { seats: String(d.seat) } }, summary, body);
    return node;
  }
  function exchangeNode(attempts) {
    const parts = attempts.map((a, i) => {
      if (typeof a !== "object" || a === null) return el("pre", {}, String(a));
      const head = [t("attempt", i + 1), a.model, a.mode, a.tool].filter(Boolean).join(" · ");
      const messages = (a.messages || []).map((m) => {
        let content = m.content;
        if (typeof content !== "string") content = JSON.stringify(content, null, 2);
        const extra = m.tool_calls ? "\n" + JSON.stringify(m.tool_calls, null, 2) : "";
        return el("div", { class: "msg" }, el("div", { class: "who" }, String(m.role ?? "?")), el("pre", {}, (content ?? "") + extra));
      });
      const problems = (a.problems || []).map((p) => el("div", { class: "problems" }, "! " + String(p)));
      return el("div", { class: "attempt" }, el("div", { class: "what" }, head), problems, messages);
    });
    return el("details", { class: "exchange" }, el("summary", {}, t("exchange", attempts.length)), parts);
  }
  function takeDecisions(e, seat, kinds) {
    const out = [];
    for (const d of e.decisions || []) {
      if (!d.used && (seat === null || d.seat === seat) && (kinds === null || kinds.includes(d.decision))) {
        d.used = true; out.push(decisionNode(d));
      }
    }
    return out;
  }

  // -- one entry ------------------------------------------------------------------------
  const DRAW = {
    "wolf-night"(e) {
      const rounds = e.detail.proposals || [];
      if (!(e.detail.discussion || []).length && rounds.length === 1) return wolfBallots(e, rounds[0]);
      const wolves = (e.detail.discussion || []).map((l) => l.seat);
      const out = [el("div", { class: "what" }, t("wolves_talk"), ": ", chips([...new Set(wolves)]))];
      for (const line of e.detail.discussion || []) {
        out.push(el("div", { class: "line" }, chip(line.seat), ": ", el("span", { class: "text" }, line.text)));
        out.push(...takeDecisions(e, line.seat, ["wolf-talk"]));
      }
      (e.detail.proposals || []).forEach((round, i) => {
        out.push(el("div", { class: "line" }, t("proposals", i + 1), ": ",
          round.flatMap(([w, target], j) => [j ? ", " : "", chip(w), " → ", target == null ? t("abstained") : chip(target)])));
      });
      out.push(el("div", { class: "line what" }, t("target"), ": ", e.diff.target == null ? t("no_kill") : chip(e.diff.target)));
      return [out, [...wolves, e.diff.target]];
    },
    "witch-action"(e) {
      const witch = e.audience ? e.audience[0] : data.view.seat;
      const told = e.detail.told_target;
      const acts = [];
      if (e.diff.save) acts.push([t("saves"), " ", chip(told)]);
      if (e.diff.poison != null) acts.push([t("poisons"), " ", chip(e.diff.poison)]);
      const action = acts.length ? acts.flatMap((a, i) => (i ? [" · ", ...a] : a)) : [t("no_potion")];
      return [[el("div", {}, el("span", { class: "what" }, t("witch")), " ", witch ? chip(witch) : "", " ",
        told != null ? [t("told"), " ", chip(told)] : t("told_none"), "; ", action)], [witch, told, e.diff.poison]];
    },
    "seer-check"(e) {
      const seer = e.audience ? e.audience[0] : data.view.seat;
      // night_fallback = nothing: a seer who never answered validly checks nobody
      if (e.diff.target == null) return [[el("div", {}, el("span", { class: "what" }, t("seer")), " ", seer ? chip(seer) : "", " ", t("checks"), " ", chip(null), ".")], [seer]];
      let verdict = e.diff.wolf ? el("span", { class: "verdict-wolf" }, t("is_wolf")) : el("span", { class: "verdict-good" }, t("is_good"));
      if (e.diff.identity != null) verdict = [roleName(e.diff.identity), " (", verdict, ")"];  // seer_learns = identity
      return [[el("div", {}, el("span", { class: "what" }, t("seer")), " ", seer ? chip(seer) : "", " ", t("checks"), " ", chip(e.diff.target), ": ", verdict)], [seer, e.diff.target]];
    },
    "guard-protect"(e) { return protect(e, t("guard_a")); },
    "doctor-protect"(e) { return protect(e, t("doctor_a")); },
    "doctor-told"(e) {
      const doctor = e.audience ? e.audience[0] : data.view.seat;
      return [[el("div", {}, el("span", { class: "what" }, t("doctor_a")), " ", doctor ? chip(doctor) : "", " ", t("saved"), " ", chip(e.diff.saved), ".")], [doctor, e.diff.saved]];
    },
    "cupid-link"(e) {
      const cupid = e.audience ? e.audience[0] : data.view.seat;
      const [a, b] = e.diff.lovers;
      return [[el("div", {}, el("span", { class: "what" }, t("cupid_a")), " ", cupid ? chip(cupid) : "", " ", t("links"), " ", chip(a), " ", t("and"), " ", chip(b), " ", t("as_lovers"))], [cupid, a, b]];
    },
    "lovers-told"(e) {
      const [a, b] = e.diff.lovers;
      const cards = e.detail.identities ? [", ", t("with_cards"), " (", roleName(e.detail.identities[0]), ", ", roleName(e.detail.identities[1]), ")"] : [];
      return [[el("div", {}, el("span", { class: "what" }, t("lovers_told")), " ", chip(a), " ", t("and"), " ", chip(b), " ", t("learn"), cards, ".")], [a, b]];
    },
    dawn(e) {
      const died = e.diff.died || [];
      const body = died.length ? [t("died"), ": ", chips(died)] : [t("peaceful")];
      return [[el("div", {}, el("span", { class: "what" }, t("dawn"), ". "), body), ...revealed(e)], died];
    },
    "last-words"(e) { return speech(e, t("last_words"), "last-words"); },
    "day-speech"(e) { return speech(e, e.detail.pk ? t("pk_speech") : t("speech"), "speech"); },
    vote(e) {
      const byTarget = new Map();
      for (const [voter, target] of e.detail.ballots || []) {
        if (!byTarget.has(target)) byTarget.set(target, []);
        byTarget.get(target).push(voter);
      }
      const targets = [...byTarget.keys()].filter((x) => x !== null).sort((a, b) => byTarget.get(b).length - byTarget.get(a).length || a - b);
      const most = Math.max(1, ...[...byTarget.values()].map((v) => v.length));
      const rows = [];
      for (const target of targets) {
        const voters = byTarget.get(target);
        rows.push(el("span", { class: "count" }, String(voters.length)), el("span", {}, chip(target)),
          el("span", { class: "bar" }, el("span", { class: "pip", style: `width:${Math.round((voters.length / most) * 4)}rem` }), voters.map(chip)));
      }
      if (byTarget.has(null)) {
        rows.push(el("span", { class: "count" }, "–"), el("span", {}, t("abstained")), el("span", { class: "bar" }, byTarget.get(null).map(chip)));
      }
      let result;
      if ((e.diff.pk || []).length) result = [t("tie"), " ", chips(e.diff.pk)];
      else if (e.diff.revealed != null) result = [chip(e.diff.revealed), " ", t("reveals_idiot")];
      else if (e.diff.exiled != null) result = [chip(e.diff.exiled), " ", t("exiled")];
      else result = [t("nobody_exiled")];
      const title = e.detail.round === 2 ? t("revote", e.day) : t("vote", e.day);
      const out = [el("div", { class: "what" }, title), el("div", { class: "votes" }, rows), el("div", { class: "result" }, "→ ", result), ...drawNote(e), ...revealed(e), ...heartbreak(e)];
      out.push(...beliefs(e), ...takeDecisions(e, null, ["vote"]));
      const seats = (e.detail.ballots || []).flat().filter((s) => s != null);
      return [out, seats];
    },
    "floor-bid"(e) {
      const bids = e.detail.bids || [];
      return [[el("div", { class: "line bids" }, el("span", { class: "what" }, t("bids", e.detail.speech ?? "?")), ": ",
        bids.flatMap(([seat, bid], i) => [i ? ", " : "", chip(seat), " " + String(bid)]), " → ", chip(e.diff.floor), " ", t("speaks"))],
        [e.diff.floor]];
    },
    "hunter-shot"(e) {
      const body = e.diff.target == null ? [t("keeps")] : [t("shoots"), " ", chip(e.diff.target), "."];
      return [[el("div", {}, el("span", { class: "what" }, t("hunter")), " ", chip(e.diff.shooter), " ", body), ...revealed(e), ...heartbreak(e)], [e.diff.shooter, e.diff.target]];
    },
    "game-end"(e) {
      const winner = e.diff.winner;
      const text = { wolves: t("wolves_win"), good: t("good_wins"), lovers: t("lovers_win") }[winner] || t("draw");
      return [[el("div", { class: "what winner-" + winner }, `${t("result")}: ${text}`),
        el("div", {}, e.detail.reason || ""), el("div", {}, t("survivors"), ": ", chips(e.detail.alive || []))], []];
    },
    "seat-swap"(e) {
      return [[el("div", {}, el("span", { class: "what" }, t("swap")), ": ", chip(e.detail.seat), " ", t("swap_text", e.detail.to ?? "?", e.detail.from ?? "?"))], [e.detail.seat]];
    },
    __error__(e) { return [[el("div", { class: "what" }, t("error", e.detail.role ?? "?")), el("pre", { class: "text" }, e.note || "")], []]; },
    __resume__() { return [[el("div", { class: "what" }, t("resumed"))], []]; },
  };
  function protect(e, who) {
    const actor = e.audience ? e.audience[0] : data.view.seat;
    return [[el("div", {}, el("span", { class: "what" }, who), " ", actor ? chip(actor) : "", " ", t("protects"), " ", chip(e.diff.target), ".")], [actor, e.diff.target]];
  }
  // wolf_kill = vote: one ballot per wolf in seat order, no talk; a tie drawn at random
  function wolfBallots(e, ballots) {
    const wolves = ballots.map(([w]) => w);
    const out = [el("div", { class: "what" }, t("wolves_vote"), ": ", chips(wolves))];
    out.push(el("div", { class: "line" }, t("ballots"), ": ",
      ballots.flatMap(([w, target], j) => [j ? ", " : "", chip(w), " → ", target == null ? t("abstained") : chip(target)])));
    out.push(el("div", { class: "line what" }, t("target"), ": ", e.diff.target == null ? t("no_kill") : chip(e.diff.target)), ...drawNote(e));
    out.push(...takeDecisions(e, null, ["wolf-kill"]));
    return [out, [...wolves, e.diff.target]];
  }
  function drawNote(e) {  // the recorded random draw that settled a tie (or a vote for nobody)
    const drawn = e.detail.draw;
    if (!drawn) return [];
    // nobody voted for anyone: the day vote's counts are empty, the wolves all abstained
    const wolvesAbstained = e.phase === "wolf-night" && (e.detail.proposals || [[]])[0].every(([, tg]) => tg == null);
    const why = (e.phase === "vote" && !(e.detail.counts || []).length) || wolvesAbstained ? t("drawn_none") : t("drawn_tie");
    return [el("div", { class: "line" }, why, " ", chips(drawn.among), ".")];
  }
  function revealed(e) {  // reveal_on_death: the dead's team or identity, told to everyone
    return (e.detail.revealed || []).map(([seat, what]) =>
      el("div", { class: "line" }, t("revealed"), ": ", chip(seat), " · ",
        what === "wolves" || what === "good" ? t(what) : roleName(what)));
  }
  function heartbreak(e) {
    const broken = meaningOf(e).deaths.filter(([, cause]) => cause === "heartbreak").map(([seat]) => seat);
    return broken.length ? [el("div", { class: "line" }, chips(broken), " ", t("heartbreak"))] : [];
  }
  // a kind without a drawing of its own: its name and the deaths it tells
  function told(e) {
    const deaths = meaningOf(e).deaths;
    const lines = deaths.map(([seat, cause]) => el("div", { class: "line" }, chip(seat), ": ", fateText(cause ?? "died", e.day)));
    return [[el("div", { class: "what" }, named("kinds", e.phase) ?? e.phase), ...lines], deaths.map(([seat]) => seat)];
  }
  // the god view's belief reports with a vote: who gave each seat what P(wolf)
  function beliefs(e) {
    if (!e.beliefs || !e.beliefs.length) return [];
    const targets = [...new Set(e.beliefs.flatMap(([, told]) => told.map(([target]) => target)))].sort((a, b) => a - b);
    const head = el("tr", {}, el("th", {}, t("by")), targets.map((target) => el("th", {}, String(target))));
    const rows = e.beliefs.map(([believer, told]) => {
      const given = new Map(told);
      return el("tr", {}, el("td", {}, withRole(believer)), targets.map((target) => el("td",
        { class: teams[target] === "wolves" ? "team-wolves" : "" }, given.has(target) ? given.get(target).toFixed(2) : "")));
    });
    return [el("details", { class: "beliefs" }, el("summary", {}, t("beliefs", e.day)), el("table", {}, el("thead", {}, head), el("tbody", {}, rows)))];
  }
  function speech(e, label, kind) {
    const seat = e.diff.speaker;
    const out = [el("div", {}, el("span", { class: "what" }, label), " ", withRole(seat)), el("p", { class: "text" }, e.detail.text)];
    out.push(...takeDecisions(e, seat, [kind]));
    return [out, [seat]];
  }

  function entryNode(e) {
    for (const d of e.decisions || []) d.used = false;
    const draw = DRAW[e.phase] || told;
    const [body, seats] = draw(e);
    const rest = takeDecisions(e, null, null);
    const cls = ["item", e.phase.replace(/_/g, ""), e.section[0] === "n" ? "night" : "day"];
    if (e.phase === "game-end") cls.push("end");
    if (e.phase === "__error__") cls.push("error");
    if (e.phase === "day-speech" || e.phase === "last-words") cls.push("speech");
    if (god && e.audience) cls.push("private");
    const acting = new Set(seats.filter((s) => s != null));
    for (const d of e.decisions || []) acting.add(d.seat);
    const node = el("article", { class: cls.join(" "), data: { seats: [...acting].join(" "), v: String(e.v) } }, body, rest);
    if (god && e.audience) {
      const who = e.audience.map((s) => `${s} ${names[s] ?? "?"}`).join(", ");
      node.append(el("div", { class: "audience" }, t("audience", who)));
    }
    return node;
  }

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
})();
