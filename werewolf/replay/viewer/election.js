// The replay viewer's part for the sheriff's events (the election, the badge, the speaking
// order) and the wolves' self-destructs, drawn as the terminal draws them
// (replay/draw_sheriff.py). All are public: every view draws them alike.

  Object.assign(LABELS.en, {
    running: "Running", nobody_runs: "Nobody runs: no sheriff.", unopposed: "is elected unopposed.",
    withdrawn: "Withdrawn (退水)", standing: "Still running", left_alone: "is left alone: sheriff.",
    badge_lost_none: "Nobody left to vote for or to vote: the badge is lost.",
    sheriff_vote: "Sheriff vote", sheriff_revote: "Sheriff PK re-vote", elected: "is elected sheriff.",
    tie_again: "they speak again, then a re-vote.", badge_lost: "No sheriff: the badge is lost.",
    the_sheriff: "The sheriff", tears: "tears the badge.", passes: "passes the badge to",
    order_text: "has {0} speak first, {1}, and speaks last.", left_way: "to the left", right_way: "to the right",
    destructs: "reveals a wolf and self-destructs", takes: "reveals the white wolf king, self-destructs and takes",
    interrupts_day: "interrupts the day: self-destructs", interrupts_election: "interrupts the election: self-destructs",
    no_vote_today: "No vote today: night falls.",
    election_speech: "Election speech", election_pk_speech: "Election PK speech",
  });
  Object.assign(LABELS.zh, {
    running: "上警", nobody_runs: "无人上警：没有警长。", unopposed: "唯一上警，当选警长。",
    withdrawn: "退水", standing: "仍在警上", left_alone: "仅剩一人，当选警长。",
    badge_lost_none: "无人可投或无人投票：警徽流失。",
    sheriff_vote: "警长投票", sheriff_revote: "警长 PK 重投", elected: "当选警长。",
    tie_again: "再次发言后重投。", badge_lost: "没有警长：警徽流失。",
    the_sheriff: "警长", tears: "撕掉警徽。", passes: "把警徽移交给",
    order_text: "指定 {0} 首先发言，{1}，警长最后归票。", left_way: "向左（逆序）", right_way: "向右（顺序）",
    destructs: "自爆，亮明狼人身份", takes: "亮出白狼王牌自爆，带走",
    interrupts_day: "打断发言：自爆", interrupts_election: "警上自爆，竞选中止",
    no_vote_today: "今天不投票，直接入夜。",
    election_speech: "竞选发言", election_pk_speech: "竞选 PK 发言",
  });

  const BADGE = "\u2605";  // ★ beside the sheriff's seat
  function starOf() { return el("span", { class: "sheriff", title: t("the_sheriff") }, BADGE); }
  function sheriffChip(seat) { return el("span", {}, chip(seat), " ", starOf()); }
  // who holds the badge after the first ``limit`` entries (null: nobody, or it was torn)
  function sheriffUntil(limit) {
    let holder = null;
    for (const e of data.entries.slice(0, limit)) {
      if (["sheriff-run", "sheriff-withdraw", "sheriff-vote"].includes(e.phase) && e.diff.sheriff != null) holder = e.diff.sheriff;
      else if (e.phase === "sheriff-badge") holder = e.diff.to ?? null;
    }
    return holder;
  }
  function kindTitle(e) {
    const name = named("kinds", e.phase) ?? e.phase;
    return el("div", { class: "what" }, name.charAt(0).toUpperCase() + name.slice(1));
  }
  // a ballot table like the exile vote's, counted as recorded (a half where a ballot weighs 1.5)
  function ballotRows(e) {
    const counts = new Map((e.detail.counts || []).map(([seat, n]) => [seat, n]));
    const byTarget = new Map();
    for (const [voter, target] of e.detail.ballots || []) {
      if (!byTarget.has(target)) byTarget.set(target, []);
      byTarget.get(target).push(voter);
    }
    const count = (target) => counts.get(target) ?? byTarget.get(target).length;
    const targets = [...byTarget.keys()].filter((x) => x !== null).sort((a, b) => count(b) - count(a) || a - b);
    const most = Math.max(1, ...targets.map(count));
    const rows = [];
    for (const target of targets) {
      rows.push(el("span", { class: "count" }, String(count(target))), el("span", {}, chip(target)),
        el("span", { class: "bar" }, el("span", { class: "pip", style: `width:${Math.round((count(target) / most) * 4)}rem` }),
          byTarget.get(target).flatMap((v) => (v === e.detail.sheriff ? [chip(v), starOf()] : [chip(v)]))));
    }
    if (byTarget.has(null)) {
      rows.push(el("span", { class: "count" }, "–"), el("span", {}, t("abstained")), el("span", { class: "bar" }, byTarget.get(null).map(chip)));
    }
    return el("div", { class: "votes" }, rows);
  }
  function destructLine(e, seat, key) {
    return [el("div", { class: "shot" }, withRole(seat), " ", el("span", { class: "what team-wolves" }, t(key)))];
  }

  Object.assign(DRAW, {
    "sheriff-run"(e) {
      const running = e.diff.candidates || [];
      const out = [kindTitle(e)];
      if (!running.length) out.push(el("div", {}, t("nobody_runs")));
      else out.push(el("div", {}, t("running"), ": ", chips(running)));
      if (e.diff.sheriff != null) out.push(el("div", { class: "result" }, "→ ", sheriffChip(e.diff.sheriff), " ", t("unopposed")));
      out.push(...takeDecisions(e, null, ["sheriff-run"]));
      return [out, running];
    },
    "sheriff-speech"(e) {
      const seat = e.diff.speaker;
      if (e.diff.self_destruct) return [[...destructLine(e, seat, "interrupts_election"), ...takeDecisions(e, seat, ["sheriff-speech"])], [seat]];
      return speech(e, e.detail.pk ? t("election_pk_speech") : t("election_speech"), "sheriff-speech");
    },
    "sheriff-withdraw"(e) {
      const out = [kindTitle(e), el("div", {}, t("withdrawn"), ": ", chips(e.diff.withdrawn || []))];
      if (e.diff.sheriff != null) out.push(el("div", { class: "result" }, "→ ", sheriffChip(e.diff.sheriff), " ", t("left_alone")));
      else if (e.diff.lost) out.push(el("div", { class: "result" }, "→ ", t("badge_lost_none")));
      out.push(...takeDecisions(e, null, ["sheriff-withdraw"]));
      return [out, e.diff.withdrawn || []];
    },
    "sheriff-vote"(e) {
      let result;
      if (e.diff.sheriff != null) result = [sheriffChip(e.diff.sheriff), " ", t("elected")];
      else if ((e.diff.pk || []).length) result = [t("tie"), " ", chips(e.diff.pk), ": ", t("tie_again")];
      else result = [t("badge_lost")];
      const title = e.detail.round === 2 ? t("sheriff_revote") : t("sheriff_vote");
      const out = [el("div", { class: "what" }, title), ballotRows(e), el("div", { class: "result" }, "→ ", result)];
      out.push(...takeDecisions(e, null, ["sheriff-vote"]));
      return [out, (e.detail.ballots || []).flat().filter((s) => s != null)];
    },
    "sheriff-badge"(e) {
      const who = [el("span", { class: "what" }, t("the_sheriff")), " ", chip(e.diff.holder), " "];
      const body = e.diff.to == null ? [t("tears")] : [t("passes"), " ", sheriffChip(e.diff.to)];
      return [[el("div", { class: "badge-pass" }, who, body), ...takeDecisions(e, null, ["badge"])], [e.diff.holder, e.diff.to]];
    },
    "sheriff-order"(e) {
      const way = e.diff.left ? t("left_way") : t("right_way");
      const [before, after] = t("order_text", "\u0000", way).split("\u0000");
      return [[el("div", {}, el("span", { class: "what" }, t("the_sheriff")), " ", sheriffChip(e.diff.sheriff), " ",
        before, chip(e.diff.first), after), ...takeDecisions(e, null, ["order"])], [e.diff.sheriff, e.diff.first]];
    },
    "self-destruct"(e) {
      const taken = e.diff.target;
      const line = taken == null ? destructLine(e, e.diff.wolf, "destructs")
        : [el("div", { class: "shot" }, withRole(e.diff.wolf), " ", el("span", { class: "what team-wolves" }, t("takes")), " ", chip(taken), ".")];
      return [[...line, ...revealed(e), ...alsoDied(e, e.diff.wolf), el("div", { class: "line" }, t("no_vote_today"))], [e.diff.wolf, taken]];
    },
  });
  // a day speech given up for a self-destruct: no words, the blast follows
  const daySpeech = DRAW["day-speech"];
  DRAW["day-speech"] = (e, bid) => (e.diff.self_destruct
    ? [[...destructLine(e, e.diff.speaker, "interrupts_day"), ...takeDecisions(e, e.diff.speaker, ["speech"])], [e.diff.speaker]]
    : daySpeech(e, bid));
