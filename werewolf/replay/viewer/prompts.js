// The replay viewer, the prompts: in the god view each model prompt is stored once
// (werewolf/replay/prompts.py) and a message holds its place there (`prompt`); its text is
// shown when the fold holding it opens. werewolf serve answers a text at data.prompts.url;
// a standalone page embeds the texts gzip-compressed (data.prompts.packed), expanded by the
// browser on first use (DecompressionStream: nothing is fetched, so file:// works too).
  const promptTexts = new Map();  // node -> Promise of its text
  let promptStore = null;  // Promise of the nodes of a standalone page: [[parent, added], ...]

  function promptNode(id, extra) {  // the message's text, until its fold opens: a mark
    return el("pre", { class: "prompt", data: { prompt: String(id), extra: extra || "" } }, "…");
  }
  function unpackedPrompts() {
    if (promptStore === null) {
      const bytes = Uint8Array.from(atob(data.prompts.packed), (c) => c.charCodeAt(0));
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      promptStore = new Response(stream).text().then((text) => JSON.parse(text));
    }
    return promptStore;
  }
  function promptText(id) {
    if (!promptTexts.has(id)) {
      const text = data.prompts && data.prompts.url
        ? fetch(data.prompts.url + String(id)).then((r) => {
          if (!r.ok) throw new Error(`prompt ${id}: ${r.status}`);
          return r.text();
        })
        : unpackedPrompts().then((nodes) => {
          const parts = [];
          for (let n = id; n >= 0; n = nodes[n][0]) parts.push(nodes[n][1]);
          return parts.reverse().join("");
        });
      promptTexts.set(id, text);
      text.catch(() => promptTexts.delete(id));  // tried again when the fold reopens
    }
    return promptTexts.get(id);
  }
  function showPrompts(fold) {
    for (const pre of fold.querySelectorAll("pre[data-prompt]:not([data-shown])")) {
      if (pre.closest("details") !== fold) continue;  // in a fold still closed inside it
      pre.dataset.shown = "";
      promptText(Number(pre.dataset.prompt)).then(
        (text) => { pre.textContent = text + pre.dataset.extra; },
        () => { pre.textContent = "(the prompt could not be loaded: close and reopen)"; delete pre.dataset.shown; });
    }
  }
  // toggle does not bubble: caught on its way down, for every fold of the page
  document.addEventListener("toggle", (ev) => {
    if (ev.target instanceof HTMLDetailsElement && ev.target.open) showPrompts(ev.target);
  }, true);

