// The browser seat's page: draws the seat's state (GET state, a long poll) and posts the
// answer to the decision asked (POST answer). Every string from the game is set as text,
// never as HTML: other players' words are shown, never run.
"use strict";

const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
const $ = (id) => document.getElementById(id);
let version = -1;
let words = {};
let shownAsk = null; // the request id the form was drawn for
let sending = false;

function text(el, value) {
  el.textContent = value || "";
  el.hidden = !value;
}

function paragraphs(el, lines) {
  el.replaceChildren(...lines.map((line) => {
    const p = document.createElement("p");
    p.textContent = line;
    return p;
  }));
}

function draft(rid) {
  return "werewolf-draft:" + base + ":" + rid;
}

function drawView(state) {
  const view = state.view;
  document.documentElement.lang = state.lang;
  words = state.ui;
  document.title = words.title;
  $("title").textContent = words.title;
  $("send").textContent = words.send;
  $("learned").textContent = words.learned;
  if (!view) return;
  $("you").textContent = view.you;
  $("ability").textContent = view.ability;
  text($("pack"), view.pack);
  $("now").textContent = view.now;
  $("seats").replaceChildren(...view.seats.map(seatChip));
  document.body.classList.toggle("night", !!view.night);
  const items = view.history.map(historyItem);
  if (!items.length) items.push(element("li", "empty", words.empty));
  $("history").replaceChildren(...items.reverse()); // the newest first, under the form
}

function element(tag, className, value) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (value !== undefined) el.textContent = value;
  return el;
}

// one seat of the table as a chip: its number and name, struck through once it is dead
function seatChip(seat) {
  const li = element("li", seat.dead ? "dead" : "");
  li.append(element("b", "", String(seat.seat)), " " + seat.name);
  li.title = seat.dead ? words.dead : words.alive;
  if (seat.dead) li.append(element("span", "sr-only", " (" + words.dead + ")"));
  return li;
}

// words a player said: who (when the heading does not say it), then the words as text
function quoteBlock(quote) {
  const block = element("blockquote");
  if (quote.who) block.append(element("cite", "", quote.who));
  block.append(element("p", "", quote.text));
  return block;
}

// one thing learned: its heading, the words said as quotes, the moderator's facts
function historyItem(item) {
  const li = element("li", "item " + item.kind);
  li.append(element("p", "head", item.head));
  for (const quote of item.quotes) li.append(quoteBlock(quote));
  for (const line of item.lines) li.append(element("p", "", line));
  return li;
}

function speechFields(ask, fields) {
  const label = document.createElement("label");
  label.className = "field";
  label.htmlFor = "words";
  label.textContent = words.words;
  const box = document.createElement("textarea");
  box.id = "words";
  box.name = "text";
  box.maxLength = ask.form.max;
  box.required = true;
  box.value = sessionStorage.getItem(draft(ask.rid)) || "";
  const count = document.createElement("p");
  count.className = "count";
  count.id = "count";
  const counted = () => {
    count.textContent = box.value.length + " / " + ask.form.max + " · " + ask.form.budget;
    sessionStorage.setItem(draft(ask.rid), box.value);
  };
  box.addEventListener("input", counted);
  counted();
  fields.append(label, box, count);
}

function choiceFields(ask, fields) {
  const set = document.createElement("fieldset");
  for (const option of ask.form.options) {
    const label = document.createElement("label");
    label.className = "option";
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "code";
    radio.value = String(option.code);
    radio.required = true;
    const span = document.createElement("span");
    span.textContent = option.label;
    label.append(radio, span);
    set.append(label);
  }
  const label = document.createElement("label");
  label.className = "field";
  label.htmlFor = "note";
  label.textContent = words.note;
  const note = document.createElement("input");
  note.type = "text";
  note.id = "note";
  note.name = "note";
  note.maxLength = 2000;
  fields.append(set, label, note);
}

function drawAsk(state) {
  const ask = state.ask;
  const form = $("ask");
  if (state.ended) {
    $("notice").textContent = state.ended;
    if (!document.body.dataset.ended) window.scrollTo(0, 0);
  } else if (!ask) {
    $("notice").textContent = state.view ? words.waiting : words.first;
  } else {
    $("notice").textContent = "";
  }
  if (!ask) {
    form.hidden = true;
    shownAsk = null;
    return;
  }
  if (shownAsk === ask.rid) return; // keep what is being typed
  shownAsk = ask.rid;
  form.dataset.rid = ask.rid;
  form.dataset.kind = ask.kind;
  paragraphs($("task"), ask.task);
  if (ask.said) {
    $("task").append(element("p", "", ask.said));
    for (const quote of ask.quotes) $("task").append(quoteBlock(quote));
  }
  text($("refused"), ask.refused);
  text($("error"), "");
  const fields = $("fields");
  fields.replaceChildren();
  (ask.form.speech ? speechFields : choiceFields)(ask, fields);
  form.hidden = false;
  $("send").disabled = false;
  form.scrollIntoView({ block: "nearest" }); // a new decision is in sight, wherever one was reading
}

function draw(state) {
  drawView(state);
  drawAsk(state);
  document.body.dataset.ready = "1";
  document.body.dataset.version = String(state.v);
  document.body.dataset.ended = state.ended ? "1" : "";
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function poll() {
  for (;;) {
    try {
      const reply = await fetch(base + "state?v=" + version, { cache: "no-store" });
      if (!reply.ok) throw new Error(String(reply.status));
      const state = await reply.json();
      if (state.v !== version || !document.body.dataset.ready) {
        version = state.v;
        draw(state);
      }
      if (state.ended) return;
    } catch (err) {
      $("notice").textContent = words.lost || "…";
      await sleep(2000);
    }
  }
}

async function send(event) {
  event.preventDefault();
  const form = $("ask");
  if (sending || form.hidden) return;
  const rid = form.dataset.rid;
  const body = { rid };
  const data = new FormData(form);
  if (data.has("text")) {
    body.text = String(data.get("text"));
  } else {
    body.code = data.has("code") ? Number(data.get("code")) : null;
    body.note = String(data.get("note") || "");
  }
  sending = true;
  $("send").disabled = true;
  try {
    const reply = await fetch(base + "answer", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await reply.json();
    if (reply.ok) {
      sessionStorage.removeItem(draft(rid));
      form.hidden = true;
      $("notice").textContent = words.sent;
    } else {
      text($("error"), answer.error);
      $("send").disabled = false;
    }
  } catch (err) {
    text($("error"), words.lost);
    $("send").disabled = false;
  } finally {
    sending = false;
  }
}

$("ask").addEventListener("submit", send);
poll();
