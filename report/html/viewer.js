// The transcript viewer of `taue report`: filters, the episode list, and one episode in order.
(async function () {
  "use strict";
  const runs = JSON.parse(document.getElementById("report-runs").textContent);
  const episodes = await unpack(document.getElementById("report-episodes").textContent);
  const FILTERS = ["run", "domain", "emotion", "reward", "category"];
  const list = document.querySelector("#episode-list tbody");
  const detail = document.getElementById("episode-detail");
  const count = document.getElementById("shown-count");

  async function unpack(text) {
    // The episodes are gzip-compressed JSON in base64: a tenth of the page's size as plain JSON.
    const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value; else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
    }
    return JSON.stringify(value);
  }

  function field(episode, name) {
    if (name === "run") return String(episode.run);
    if (name === "reward") return String(episode.reward);
    if (name === "category") return episode.category || "none";
    return String(episode[name]);
  }

  function shownEpisodes() {
    const chosen = FILTERS.map((name) => [name, document.getElementById("filter-" + name).value]);
    return episodes.map((episode, index) => [episode, index])
      .filter(([episode]) => chosen.every(([name, value]) => value === "" || field(episode, name) === value));
  }

  function renderList() {
    const shown = shownEpisodes();
    list.replaceChildren(...shown.map(([episode, index]) => {
      const row = el("tr", { "data-index": index, "data-key": episode.task + "#" + episode.trial },
        el("td", {}, runs[episode.run].name), el("td", {}, episode.task), el("td", {}, episode.trial),
        el("td", {}, episode.emotion), el("td", { class: "reward-" + episode.reward }, episode.reward),
        el("td", {}, episode.category || ""));
      row.addEventListener("click", () => select(index));
      return row;
    }));
    count.textContent = shown.length + " of " + episodes.length + " episodes";
  }

  function eventNode(event) {
    if (event.kind !== "tool_call") {
      const who = event.kind === "user" ? "user" : "agent";
      return el("div", { class: "event " + event.kind }, el("span", { class: "who" }, who + (event.at ? " · " + event.at : "")), event.text);
    }
    const classes = ["event", "tool_call", event.error ? "error" : "", event.writes ? "writes" : ""].join(" ");
    const timing = [event.at, event.ms !== null && event.ms !== undefined ? event.ms + " ms" : null].filter(Boolean).join(" · ");
    return el("div", { class: classes, "data-tool": event.name },
      el("span", { class: "who" }, "tool call" + (event.error ? " (error)" : "") + (timing ? " · " + timing : "")),
      el("div", { class: "call" }, event.name + "(" + JSON.stringify(event.arguments) + ")"),
      el("div", { class: "output" }, "→ " + event.output));
  }

  function timeline(episode) {
    const nodes = [];
    let turn = null;
    for (const event of episode.events) {
      if (event.turn !== turn) {
        turn = event.turn;
        nodes.push(el("div", { class: "turn-mark" }, turn === null ? "calls of unknown turn" : "turn " + turn));
      }
      nodes.push(eventNode(event));
    }
    return nodes;
  }

  function goldActions(episode) {
    if (!episode.gold) return [el("p", { class: "note" }, "The task is not installed here.")];
    if (!episode.gold.length) return [el("p", { class: "note" }, "No gold actions (a refusal or answer-only task).")];
    const made = new Set(episode.events.filter((e) => e.kind === "tool_call" && !e.error)
      .map((e) => e.name + canonical(e.arguments)));
    return episode.gold.map((action) => {
      const done = made.has(action.name + canonical(action.arguments));
      return el("div", { class: "gold-action " + (done ? "made" : "not-made"), "data-tool": action.name },
        (done ? "✓ " : "✗ ") + action.name + "(" + JSON.stringify(action.arguments) + ")");
    });
  }

  function diffTables(episode) {
    if (!episode.diff.length) return [];
    return [el("h4", {}, "Database rows that differ from the expected end state"), ...episode.diff.map((row) => {
      const columns = Array.from(new Set([...Object.keys(row.expected || {}), ...Object.keys(row.actual || {})])).sort();
      const changed = new Set(row.fields);
      const cell = (side, column, css) => el("td", { class: changed.has(column) ? "changed" : css },
        side ? JSON.stringify(side[column]) : "—");
      return el("table", { class: "db-diff", "data-table": row.table, "data-key": row.key },
        el("caption", {}, row.table + " " + row.key + (row.expected ? "" : " (extra row)") + (row.actual ? "" : " (missing row)")),
        el("thead", {}, el("tr", {}, el("th", {}, "column"), el("th", {}, "expected"), el("th", {}, "agent left"))),
        el("tbody", {}, columns.map((column) => el("tr", { "data-column": column }, el("th", {}, column),
          cell(row.expected, column, "expected-side"), cell(row.actual, column, "")))));
    })];
  }

  function select(index) {
    const episode = episodes[index];
    for (const row of list.querySelectorAll("tr.selected")) row.classList.remove("selected");
    const row = list.querySelector('tr[data-index="' + index + '"]');
    if (row) {
      row.classList.add("selected");
      row.scrollIntoView({ block: "nearest", inline: "start" });
    }
    history.replaceState(null, "", "#episode-" + index);
    const facts = [runs[episode.run].name, episode.domain, episode.condition || "neutral twin",
      "reward " + episode.reward, episode.termination];
    detail.replaceChildren(...[
      el("h3", { "data-index": index }, episode.task + " · trial " + episode.trial),
      el("p", { class: "note" }, facts.join(" · ")),
      episode.scenario ? el("p", { class: "note" }, "Scenario: " + episode.scenario) : null,
      episode.category ? el("p", { class: "labels" }, "Failure: ", el("strong", {}, episode.category), " ",
        episode.labels.map((label) => el("span", {}, label))) : null,
      episode.error ? el("p", { class: "note" }, "Error: " + episode.error) : null,
      el("div", { class: "detail-grid" },
        el("div", { class: "events" }, el("h4", {}, "Conversation and tool calls, in order"), timeline(episode)),
        el("div", { class: "expected" }, el("h4", {}, "Gold actions"), goldActions(episode),
          episode.outputs.length ? el("h4", {}, "Expected outputs") : null,
          episode.outputs.map((output) => el("div", { class: "gold-action" }, output)),
          diffTables(episode))),
    ].filter((node) => node !== null));
  }

  for (const name of FILTERS) document.getElementById("filter-" + name).addEventListener("change", renderList);
  renderList();
  function selectFromHash() {
    const wanted = /^#episode-(\d+)$/.exec(location.hash);
    if (wanted && episodes[Number(wanted[1])]) select(Number(wanted[1]));
  }
  window.addEventListener("hashchange", selectFromHash);
  selectFromHash();
})();
