// The replay viewer, 3 of 4: one entry, and in the god view the decisions behind it.
// werewolf/replay/page.py puts the four parts, in this order, into one function: they
// share its scope. The viewer reads the page data (JSON in #game-data), never HTML: every
// text goes into the page through textContent, so nothing from a game can become markup.

  // -- decisions (god view): reasoning, exchanges, cost, fallback -----------------------
  function decisionNode(d) {
    const label = DECISIONS[d.decision] ? t(DECISIONS[d.decision])
      : named("identities", d.decision) ?? (d.decision in LABELS.en ? t(d.decision) : named("kinds", d.decision) ?? d.decision);
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
        const text = m.prompt === undefined ? el("pre", {}, (content ?? "") + extra) : promptNode(m.prompt, extra);
        return el("div", { class: "msg" }, el("div", { class: "who" }, String(m.role ?? "?")), text);
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
      const saved = e.saved ? [el("div", { class: "line saved" }, t("saved_from_wolves"), ": ", chip(e.saved.seat), " · ",
        t("saved_by", e.saved.by.map(roleName).join(t("list_sep"))))] : [];
      return [[el("div", {}, el("span", { class: "what" }, t("dawn"), ". "), body), ...saved, ...revealed(e)], [...died, ...(e.saved ? [e.saved.seat] : [])]];
    },
    "last-words"(e) { return speech(e, t("last_words"), "last-words"); },
    "day-speech"(e, bid) { return speech(e, e.detail.pk ? t("pk_speech") : t("speech"), "speech", bid); },
    vote(e) {
      const rows = ballotRows(e);  // election.js: counted as recorded, the sheriff's ballot starred
      let result;
      if ((e.diff.pk || []).length) result = [t("tie"), " ", chips(e.diff.pk)];
      else if (e.diff.revealed != null) result = [chip(e.diff.revealed), " ", t("reveals_idiot")];
      else if (e.diff.exiled != null) result = [chip(e.diff.exiled), " ", t("exiled")];
      else result = [t("nobody_exiled")];
      const title = e.detail.round === 2 ? t("revote", e.day) : t("vote", e.day);
      const out = [el("div", { class: "what" }, title), rows, el("div", { class: "result" }, "→ ", result), ...drawNote(e), ...revealed(e), ...alsoDied(e, e.diff.exiled)];
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
      const card = e.diff.card; // a shooter who is not the hunter (the wolf king) names his card
      const name = card == null ? "" : roleName(card);
      const who = card == null ? t("hunter") : name.charAt(0).toUpperCase() + name.slice(1);
      const shoots = card == null ? t("shoots") : t("shoots_card", name);
      const body = e.diff.target == null ? [t("keeps")] : [shoots, " ", chip(e.diff.target), "."];
      const what = card == null ? "what" : "what team-" + teamOf(card);
      return [[el("div", { class: "shot", data: { card: card ?? "hunter" } }, el("span", { class: what }, who), " ", chip(e.diff.shooter), " ", body), ...revealed(e), ...alsoDied(e, e.diff.target)], [e.diff.shooter, e.diff.target]];
    },
    "game-end"(e) {
      const winner = e.diff.winner;
      const text = { wolves: t("wolves_win"), good: t("good_wins"), lovers: t("lovers_win") }[winner] || t("draw");
      const reason = (e.reason || {})[lang] ?? e.detail.reason ?? "";  // worded by page.py
      return [[el("div", { class: "what winner-" + winner }, `${t("result")}: ${text}`),
        el("div", {}, reason), el("div", {}, t("survivors"), ": ", chips(e.detail.alive || []))], []];
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
  // the deaths an entry tells beside the one it is about (a lover's heartbreak), each worded
  // by its cause as the registry words it
  function alsoDied(e, main) {
    return meaningOf(e).deaths.filter(([seat]) => seat !== main).map(([seat, cause]) =>
      el("div", { class: "line" }, chip(seat), ": ", fateText(cause ?? "died", e.day)));
  }
  // a kind without a drawing of its own (an identity's own event): its name, the cards it
  // shows and the deaths it tells, all from its meaning
  function told(e) {
    const { deaths, revealed: shown } = meaningOf(e);
    const name = named("kinds", e.phase) ?? e.phase;
    const cards = shown.map(([seat, what]) => el("div", { class: "line" }, t("revealed"), ": ", chip(seat), " · ",
      what === "wolves" || what === "good" ? t(what) : roleName(what)));
    const lines = deaths.map(([seat, cause]) => el("div", { class: "line" }, chip(seat), ": ", fateText(cause ?? "died", e.day)));
    const seats = [...shown.map(([seat]) => seat), ...deaths.map(([seat]) => seat)];
    const text = typeof e.detail.text === "string" ? [el("p", { class: "text" }, e.detail.text)] : [];
    return [[el("div", { class: "what" }, name.charAt(0).toUpperCase() + name.slice(1)), ...cards, ...lines, ...text], seats];
  }
  // the god view's belief reports with a vote: who gave each seat what P(wolf)
  function beliefs(e) {
    if (!e.beliefs || !e.beliefs.length) return [];
    const targets = [...new Set(e.beliefs.flatMap(([, told]) => told.map(([target]) => target)))].sort((a, b) => a - b);
    const head = el("tr", {}, el("th", {}, t("by")), targets.map((target) => el("th",
      { class: teams[target] ? "team-" + teams[target] : "", title: `${target} ${names[target] ?? "?"}` }, String(target), teamMark(teams[target]))));
    const rows = e.beliefs.map(([believer, told]) => {
      const given = new Map(told);
      return el("tr", {}, el("td", {}, withRole(believer)), targets.map((target) => el("td",
        { class: teams[target] === "wolves" ? "team-wolves" : "" }, given.has(target) ? given.get(target).toFixed(2) : "")));
    });
    return [el("details", { class: "beliefs" }, el("summary", {}, t("beliefs", e.day)),
      el("div", { class: "scroll" }, el("table", {}, el("thead", {}, head), el("tbody", {}, rows))),
      el("p", { class: "sub" }, t("beliefs_key")))];
  }
  // a speech, with the bids that gave it the floor (a bidding discussion) beside it
  function speech(e, label, kind, bid) {
    const seat = e.diff.speaker;
    const bids = bid ? [el("span", { class: "bids", id: "e" + bid.v, title: t("bids", bid.detail.speech ?? "?") }, t("bid_list"), ": ",
      (bid.detail.bids || []).flatMap(([s, b], i) => [i ? ", " : "", chip(s), " " + String(b)]))] : [];
    const out = [el("div", {}, el("span", { class: "what" }, label), " ", withRole(seat), " ", bids), el("p", { class: "text" }, e.detail.text)];
    if (bid) out.push(...takeDecisions(bid, null, null));
    out.push(...takeDecisions(e, seat, [kind]));
    return [out, [seat]];
  }

  // an entry as one item; a floor bid is drawn beside the speech it gave the floor to
  function entryNode(e, bid) {
    for (const d of [...(e.decisions || []), ...((bid && bid.decisions) || [])]) d.used = false;
    const draw = DRAW[e.phase] || told;
    const [body, seats] = draw(e, bid);
    const rest = takeDecisions(e, null, null);
    const cls = ["item", e.phase.replace(/_/g, ""), e.section[0] === "n" ? "night" : "day"];
    if (e.phase === "game-end") cls.push("end");
    if (e.phase === "__error__") cls.push("error");
    if (e.phase === "day-speech" || e.phase === "last-words") cls.push("speech");
    if (god && e.audience) cls.push("private");
    const acting = new Set(seats.filter((s) => s != null));
    for (const d of e.decisions || []) acting.add(d.seat);
    if (bid) for (const [s] of bid.detail.bids || []) acting.add(s);
    const node = el("article", { class: cls.join(" "), id: "e" + e.v, tabindex: "-1", data: { seats: [...acting].join(" "), v: String(e.v), kind: named("kinds", e.phase) ?? e.phase } }, body, rest);
    if (god && e.audience) {
      const who = e.audience.map((s) => `${s} ${names[s] ?? "?"}`).join(", ");
      node.append(el("div", { class: "audience" }, t("audience", who)));
    }
    return node;
  }

