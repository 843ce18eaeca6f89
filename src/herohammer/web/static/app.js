// herohammer's table page: draws the state as SVG and asks the JSON API (/api) every question.
// It decides no rule itself: legality, reasons, clause ids and odds all come from the server.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SIDE_COLOURS = ["#c0392b", "#2e6fd8", "#8e44ad", "#d68910"];
const $ = (id) => document.getElementById(id);

const ui = {
  tableId: null,
  view: null,
  selected: null,
  proposal: null,      // the action shown in the ruling box
  job: null,           // the running odds or simulation job id
  drag: null,
  checkSeq: 0,
  waiting: 0,          // the answers (the server's, a file's) the page waits on now
};

// ---------------------------------------------------------------- settled ---------
// While the page waits on an answer (the server's, a file's read), <body aria-busy="true">: a screen reader (and a
// test) reads the page once what the answer brings is drawn, lists refetched after it and all, not half drawn.
function waitingOn(promise) {
  ui.waiting += 1;
  document.body.setAttribute("aria-busy", "true");
  return promise.finally(() => {
    ui.waiting -= 1;
    if (!ui.waiting) document.body.setAttribute("aria-busy", "false");
  });
}

// ---------------------------------------------------------------- the API ---------
function api(method, path, body) { return waitingOn(request(method, path, body)); }

// A question to the server not counted as a wait of the page: a running job's polls (its progress bar says it works).
async function request(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const response = await fetch(path, opts);
  if (!response.ok) throw await failure(response, path);
  return response.json();
}

// The error of an answer that did not go through. A table the server no longer holds (it was restarted, or closed
// the table for newer ones) is said on the message line whatever asked, since every later question fails alike.
async function failure(response, path) {
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `${response.status} ${response.statusText}` }; }
  let message = data && data.error ? data.error : `${response.status}`;
  const table = path.match(/^\/api\/tables\/([^/?]+)/);
  if (response.status === 404 && table && message.startsWith("no open table")) {
    message = lostTable(decodeURIComponent(table[1]));
    say(message);
  }
  const err = new Error(message);
  err.data = data; err.status = response.status;
  return err;
}

function lostTable(id) {
  return `table ${id}: the server no longer has this table (it was restarted, or it closed the table for newer `
    + "ones): use Open file to load your scenario again";
}

function say(text, kind) {
  const box = $("message");
  box.textContent = text;
  box.dataset.kind = kind || "error";
  box.hidden = !text;
  delete box.dataset.job;
}

// An answer that went through ends an earlier error: an old refusal left up would read as this answer's.
function clearError() {
  if ($("message").dataset.kind === "error") say("");
}

function tablePath(rest) { return `/api/tables/${ui.tableId}${rest || ""}`; }

// ---------------------------------------------------------------- helpers ---------
function el(tag, attrs, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

// A note as the CLI prints it, "what it says [rule.id, ...]": its text, then its clause ids as chips.
function noteLine(note, clauses) {
  const cited = /\s*\[([\w.\-]+(?:,\s*[\w.\-]+)*)\]\s*$/.exec(note);
  const div = el("div", { class: "note" }, `note: ${cited ? note.slice(0, cited.index) : note} `);
  if (cited) div.append(ruleChips(cited[1].split(",").map((s) => s.trim()), clauses));
  return div;
}

function ruleChips(rules, clauses) {
  const span = el("span", { class: "rules" });
  for (const id of rules || []) {
    span.append(el("span", { class: "rule", title: (clauses && clauses[id]) || id, "data-rule": id }, id));
  }
  return span;
}

function sideColour(side) {
  const i = ui.view.sides.indexOf(side);
  return SIDE_COLOURS[(i < 0 ? 0 : i) % SIDE_COLOURS.length];
}

function unitById(id) { return ui.view.units.find((u) => u.id === id); }

function fractionValue(p) {
  if (typeof p === "object" && p !== null) return p.estimate;
  const [a, b] = String(p).split("/");
  return b === undefined ? Number(a) : Number(a) / Number(b);
}

// ---------------------------------------------------------------- drawing ---------
function sy(y) { return ui.view.table.depth - y; }

// The area drawn: the whole table, or (by default) the units and terrain with 4" around them, to scale either way.
function viewBox(v) {
  if ($("whole-table").checked) return `0 0 ${v.table.width} ${v.table.depth}`;
  const xs = [], ys = [];
  for (const u of v.units) for (const m of u.models) { xs.push(m.x); ys.push(m.y); }
  for (const t of v.terrain) for (const [x, y] of t.polygon) { xs.push(x); ys.push(y); }
  if (!xs.length) return `0 0 ${v.table.width} ${v.table.depth}`;
  const pad = 4;
  let x0 = Math.max(0, Math.min(...xs) - pad), x1 = Math.min(v.table.width, Math.max(...xs) + pad);
  let y0 = Math.max(0, Math.min(...ys) - pad), y1 = Math.min(v.table.depth, Math.max(...ys) + pad);
  // keep the table's proportions so the page does not jump between states
  const aspect = v.table.width / v.table.depth;
  if ((x1 - x0) / (y1 - y0) < aspect) { const w = (y1 - y0) * aspect, cx = (x0 + x1) / 2; x0 = cx - w / 2; x1 = cx + w / 2; }
  else { const h = (x1 - x0) / aspect, cy = (y0 + y1) / 2; y0 = cy - h / 2; y1 = cy + h / 2; }
  return `${x0} ${v.table.depth - y1} ${x1 - x0} ${y1 - y0}`;
}

function draw() {
  const v = ui.view;
  const svg = $("table");
  svg.replaceChildren();
  const box = viewBox(v);
  svg.setAttribute("viewBox", box);
  svg.setAttribute("font-size", String(Math.max(0.5, Number(box.split(" ")[2]) / 55)));
  svg.append(el("svg:rect", { class: "table-edge", x: 0, y: 0, width: v.table.width, height: v.table.depth }));
  svg.dataset.ruleset = v.ruleset;
  for (let x = 6; x < v.table.width; x += 6) svg.append(el("svg:line", { class: "grid", x1: x, y1: 0, x2: x, y2: v.table.depth }));
  for (let y = 6; y < v.table.depth; y += 6) svg.append(el("svg:line", { class: "grid", x1: 0, y1: y, x2: v.table.width, y2: y }));
  for (const t of v.terrain) {
    const g = el("svg:polygon", { class: `terrain terrain-${t.kind}`, "data-terrain": t.id,
      points: t.polygon.map(([x, y]) => `${x},${sy(y)}`).join(" ") });
    g.append(el("svg:title", {}, `${t.id} (${t.kind} terrain)`));
    svg.append(g);
    const cx = t.polygon.reduce((s, p) => s + p[0], 0) / t.polygon.length;
    const cy = t.polygon.reduce((s, p) => s + p[1], 0) / t.polygon.length;
    svg.append(el("svg:text", { x: cx, y: sy(cy), "text-anchor": "middle", fill: "#dfe" }, t.id));
  }
  for (const u of v.units) if (u.formation) drawFormation(svg, u);
  for (const u of v.units) if (u.alive && u.models.length) drawUnit(svg, u);  // a unit aboard a transport has no model on the table
  for (const u of v.units) if (u.alive && u.models.length) drawLabel(svg, u);
  if (ui.ghost) svg.append(ui.ghost);
}

function drawFormation(svg, u) {
  const f = u.formation;
  const g = el("svg:g", { class: "formation", "data-formation": u.id });
  const [w, d] = f.slot;
  for (const s of f.slots) {
    const r = el("svg:rect", { class: `slot${s.rank === 0 ? " front" : ""}`, x: s.x - w / 2, y: sy(s.y) - d / 2,
      width: w, height: d, transform: `rotate(${-f.facing} ${s.x} ${sy(s.y)})`,
      "data-slot": `${s.rank}:${s.file}`, "data-name": s.name });
    g.append(r);
  }
  // The front edge: a bold line across the front of the first rank, and an arrow for the facing.
  const t = f.facing * Math.PI / 180;
  const right = [Math.cos(t), Math.sin(t)], fwd = [-Math.sin(t), Math.cos(t)];
  const half = f.files * w / 2;
  const [px, py] = f.position;
  g.append(el("svg:line", { class: "front-edge", x1: px - right[0] * half, y1: sy(py - right[1] * half),
    x2: px + right[0] * half, y2: sy(py + right[1] * half) }));
  g.append(el("svg:line", { class: "front-edge", x1: px, y1: sy(py), x2: px + fwd[0] * 1.2, y2: sy(py + fwd[1] * 1.2),
    "marker-end": "" }));
  svg.append(g);
}

function drawUnit(svg, u) {
  const colour = sideColour(u.side);
  const classes = ["unit"];
  if (ui.selected === u.id) classes.push("selected");
  // Focusable, so that a keyboard selects it (Enter or Space) as a click does.
  const g = el("svg:g", { class: classes.join(" "), "data-unit": u.id, "data-side": u.side, tabindex: "0",
    role: "button", "aria-label": `${u.id} (${u.side}${u.joined ? `, joined to ${u.joined}` : ""}): select` });
  const host = u.joined ? unitById(u.joined) : null;
  for (const m of u.models) {
    const x = m.x, y = sy(m.y);
    let shape;
    if (m.base.round) {
      shape = el("svg:circle", { cx: x, cy: y, r: m.base.width / 2 });
    } else {
      shape = el("svg:rect", { x: x - m.base.width / 2, y: y - m.base.depth / 2, width: m.base.width,
        height: m.base.depth, transform: `rotate(${-m.facing} ${x} ${y})` });
    }
    shape.setAttribute("class", "model");
    shape.setAttribute("fill", colour);
    shape.dataset.unit = u.id;
    shape.dataset.model = m.name;
    const wounds = m.wounds > 1 ? `, ${m.wounds_left}/${m.wounds} wounds` : "";
    shape.append(el("svg:title", {}, `${m.name} (${u.id}${u.joined ? `, joined to ${u.joined}` : ""})${wounds}\n${m.profile}`
      + (m.role ? `\n${m.role}` : "")));
    g.append(shape);
    if (u.character) {
      // Characters are marked with a gold star on their base.
      const r = Math.min(m.base.width, m.base.depth) * 0.32;
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
        pts.push(`${x + rr * Math.cos(a)},${y + rr * Math.sin(a)}`);
      }
      g.append(el("svg:polygon", { class: "character-mark", points: pts.join(" ") }));
    }
    if (host && host.models.length) {
      // A joined character is tied to its unit by a dashed line to the unit's nearest model.
      let best = host.models[0], bd = Infinity;
      for (const hm of host.models) {
        const dd = (hm.x - m.x) ** 2 + (hm.y - m.y) ** 2;
        if (dd < bd) { bd = dd; best = hm; }
      }
      if (bd > 0.01) g.append(el("svg:line", { class: "joined-link", stroke: colour, x1: x, y1: y, x2: best.x, y2: sy(best.y) }));
    }
  }
  svg.append(g);
}

// A status as the server names it for this game (view.py's STATUS_WORDS): its words, and its tag on the table.
function statusOf(id) {
  return ui.view.statuses.find((s) => s.id === id) || { id, words: id.replaceAll("_", " "), tag: null };
}

function drawLabel(svg, u) {
  const xs = u.models.map((m) => m.x), ys = u.models.map((m) => m.y);
  const top = Math.max(...u.models.map((m) => m.y + m.base.depth / 2));
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const joiners = ui.view.units.filter((c) => c.joined === u.id && c.alive).map((c) => c.id);
  let name = u.id + (joiners.length ? ` + ${joiners.join(", ")}` : "");
  if (u.joined) return;  // shown with its unit's label
  if (u.character) name = `\u2605 ${name}`;
  svg.append(el("svg:text", { class: "label", x: cx, y: sy(top), dy: "-0.3em", "text-anchor": "middle",
    fill: sideColour(u.side), "data-label": u.id }, name));
  const tags = [...u.status, ...ui.view.units.filter((c) => c.joined === u.id).flatMap((c) => c.status)]
    .map((s) => statusOf(s).tag).filter(Boolean);
  if (tags.length) {
    const bottom = Math.min(...ys.map((y, i) => y - u.models[i].base.depth / 2));
    svg.append(el("svg:text", { class: "status", x: cx, y: sy(bottom), dy: "1.1em", "text-anchor": "middle",
      "data-status": u.id }, [...new Set(tags)].join(" \u00b7 ")));
  }
}

// ---------------------------------------------------------------- table state -------
function show(view) {
  ui.view = view;
  ui.tableId = view.table_id;
  history.replaceState(null, "", `/?table=${view.table_id}`);
  $("status-line").textContent = `${view.name}: ${view.ruleset}, turn ${view.turn}, ${view.active} to act, ${view.phase} phase`;
  $("undo").disabled = !view.can_undo;
  $("march-box").hidden = view.ruleset !== "t9a";  // only The 9th Age marches
  $("download").href = tablePath("/scenario?format=yaml&download=true");
  $("download-game").href = tablePath("/scenario?format=yaml&download=true&record=true");
  $("undo").title = view.can_undo ? "take back the last action" : "nothing to undo (nothing played at this table since it was opened)";
  if (ui.selected && !unitById(ui.selected)) ui.selected = null;
  draw();
  drawLog();
  refreshSelection();
}

function drawLog() {
  const list = $("log");
  list.replaceChildren();
  for (const e of ui.view.log) {
    const li = el("li", { "data-kind": e.kind });
    li.append(document.createTextNode(e.message + " "));
    li.append(ruleChips(e.rules, e.clauses));
    for (const r of e.rolls || []) {
      li.append(el("div", { class: "roll" }, `roll ${r.purpose}: ${r.dice} = ${r.value}${r.faces ? ` (${r.faces.join(", ")})` : ""}`));
    }
    list.append(li);
  }
}

async function openTable(body) {
  busy(true);
  try {
    const view = await api("POST", "/api/tables", body);
    ui.selected = null; clearProposal(); tableChanged(); $("targets").replaceChildren();
    show(view);
    sayNotes(view, "");
    return view;
  } catch (e) {
    say(e.message);
    throw e;
  } finally { busy(false); }
}

// Say what the scenario holds that no rule reads (the server's notes), after what was done.
function sayNotes(view, done) {
  const notes = (view.notes || []).map((n) => `note: ${n}`);
  if (notes.length) say([done, ...notes].filter(Boolean).join("\n"), "note");
  else say(done, "info");
}

function busy(on) { $("busy").hidden = !on; }

// ---------------------------------------------------------------- selection -------
async function select(unitId) {
  ui.selected = unitId;
  draw();
  await refreshSelection();
}

async function refreshSelection() {
  const id = ui.selected;
  const seq = ui.selectSeq = (ui.selectSeq || 0) + 1;  // a later selection's answers win over an earlier one's
  $("selected-name").textContent = id || "nothing";
  const info = $("unit-info");
  info.replaceChildren();
  $("actions").replaceChildren();
  $("actions").setAttribute("aria-busy", "true");  // until this selection's actions are listed (a reader, a test waits)
  for (const g of document.querySelectorAll("#table .unit")) g.classList.remove("target-legal", "target-illegal");
  if (!id) { $("targets").replaceChildren(); await listActions(null, seq); return; }
  const u = unitById(id);
  info.append(el("div", {}, `${u.side}, ${u.type}${u.character ? `, ${u.character} character` : ""}`
    + `${u.joined ? `, joined to ${u.joined}` : ""}${u.rules.length ? `; rules: ${u.rules.join(", ")}` : ""}`));
  const status = el("ul", { class: "unit-status", "aria-label": `${id}'s status` });
  for (const s of u.status) status.append(el("li", { "data-status-id": s, title: s }, statusOf(s).words));
  if (!u.status.length) status.append(el("li", {}, "none"));
  info.append(el("div", {}, "status:"), status);
  for (const m of u.models) info.append(el("div", { class: "profile" }, `${m.name}: ${m.profile}`));
  await Promise.all([listActions(id, seq), listTargets(id, seq)]);
}

async function listActions(unitId, seq) {
  const list = $("actions");
  try {
    const all = await api("GET", tablePath("/actions"));
    if (seq !== ui.selectSeq) return;
    const mine = (a) => [a.unit, a.character, a.psyker].includes(unitId);
    const items = all.result.summary.filter((a) => (unitId && mine(a)) || a.do === "end_phase");
    list.replaceChildren();
    for (const a of items) {
      const li = el("li", { "data-do": a.do });
      if (a.do === "move" && typeof a.to === "string") {
        li.append(document.createTextNode(`move ${a.unit}: drag it on the table (${a.sampled_directions_legal} sampled directions legal)`));
      } else {
        const text = JSON.stringify(a);
        li.append(el("code", {}, text + " "));
        const check = el("button", { type: "button", class: "act-check" }, "Check");
        check.onclick = () => propose(a);
        const odds = el("button", { type: "button", class: "act-odds" }, "Odds");
        odds.onclick = () => startOdds(a);
        const apply = el("button", { type: "button", class: "act-apply" }, "Apply");
        apply.onclick = () => play(a);
        li.append(check, odds, apply);
      }
      list.append(li);
    }
    const why = all.result.none_because, ending = all.end_phase_refused;
    if (why) {  // the battle is over: say so, with the rule, as herohammer actions does
      list.append(el("li", { class: "none-now" }, `none: ${why} [${all.rules.join(", ")}]`));
      return;
    }
    if (unitId && !items.length) {  // others may act: say that this unit has nothing, and where a joined character's actions are
      const u = unitById(unitId);
      list.append(el("li", { class: "none-now" }, `no action of ${unitId}'s own now`
        + (u && u.joined ? ` (joined to ${u.joined}: select it for the actions they take together)` : "")));
    }
    if (ending) {  // why the phase cannot end yet (a close combat to fight...), with its rule, rather than no button
      const li = el("li", { class: "end-phase-refused", "data-do": "end_phase" }, `end the phase: not yet: ${ending.reason} `);
      li.append(ruleChips(ending.rules, all.clauses));
      list.append(li);
    }
  } catch (e) { list.replaceChildren(el("li", {}, e.message)); } finally {
    if (seq === ui.selectSeq) list.setAttribute("aria-busy", "false");
  }
}

async function listTargets(unitId, seq) {
  const list = $("targets");
  list.replaceChildren();
  try {
    const answer = await api("GET", tablePath(`/targets?unit=${encodeURIComponent(unitId)}`));
    if (seq !== ui.selectSeq) return;
    for (const [tid, r] of Object.entries(answer.result.targets)) {
      const li = el("li", { "data-target": tid, "data-legal": String(r.legal) });
      li.append(el("span", { class: r.legal ? "legal" : "illegal" }, `${tid}: ${r.legal ? "legal" : "illegal"} target `));
      li.append(document.createTextNode(r.reason + " "));
      li.append(ruleChips(r.rules, answer.clauses));
      list.append(li);
      const g = document.querySelector(`#table .unit[data-unit="${CSS.escape(tid)}"]`);
      if (g) g.classList.add(r.legal ? "target-legal" : "target-illegal");
    }
    if (!Object.keys(answer.result.targets).length) list.append(el("li", {}, "no enemy units"));
  } catch (e) { list.append(el("li", {}, e.message)); }
}

// ---------------------------------------------------------------- rulings ---------
function showRuling(action, r, clauses) {
  clearError();
  const box = $("ruling");
  box.replaceChildren();
  box.dataset.state = r.legal ? "legal" : "illegal";
  box.append(el("div", { class: "verdict" }, r.legal ? "LEGAL" : "ILLEGAL"));
  box.append(el("code", { class: "proposed" }, JSON.stringify(action)));
  box.append(el("div", { class: "reason" }, r.reason));
  box.append(ruleChips(r.rules, clauses));
  for (const n of r.notes || []) box.append(noteLine(n, clauses));
  ui.proposal = action;
  if (ui.ghost) ui.ghost.dataset.legal = String(r.legal);
  $("proposal-buttons").hidden = false;
  $("proposal-apply").disabled = !r.legal;
  $("proposal-odds").disabled = !r.legal;
}

function showRefusal(action, message, data) {
  const box = $("ruling");
  if (ui.ghost) ui.ghost.dataset.legal = "false";
  box.replaceChildren();
  box.dataset.state = "illegal";
  box.append(el("div", { class: "verdict" }, "REFUSED"));
  if (action) box.append(el("code", { class: "proposed" }, JSON.stringify(action)));
  box.append(el("div", { class: "reason" }, message));
  if (data && data.rules) box.append(ruleChips(data.rules, data.clauses));
}

function clearProposal() {
  ui.proposal = null;
  if (ui.ghost) { ui.ghost.remove(); ui.ghost = null; }
  $("ruling").dataset.state = "none";
  $("ruling").textContent = "Drag a model or pick an action.";
  $("proposal-buttons").hidden = true;
}

async function propose(action) {
  const seq = ++ui.checkSeq;
  try {
    const r = await api("POST", tablePath("/check"), { action });
    if (seq === ui.checkSeq) showRuling(action, r.result, r.clauses);
    return r;
  } catch (e) {
    if (seq === ui.checkSeq) showRefusal(action, e.message, e.data);
    return null;
  }
}

// ---------------------------------------------------------------- play and undo ----
// The typed-in faces and the seed read as the CLI's --dice and --seed read them: a typo is named here (die #3 is
// 'x'), not sent as null and refused as "body.dice[2]: expected a whole number" under the action as REFUSED.
function diceChoice() {
  const faces = $("faces").value.trim();
  if (faces) {
    const words = faces.split(/[\s,]+/).filter(Boolean);
    words.forEach((t, i) => {
      if (!/^[1-6]$/.test(t)) throw new Error(`typed-in faces: die #${i + 1} is '${t}': expected a face from 1 to 6`);
    });
    return { dice: words.map(Number) };
  }
  const seed = $("seed").value.trim();
  if (seed !== "" && !/^[0-9]+$/.test(seed)) throw new Error(`seed: '${seed}' is not a whole number from 0 up`);
  return seed === "" ? {} : { seed: Number(seed) };
}

// An action's events in the one message line: a fight's dozens (every Initiative step, roll and save) are cut to how it
// began and how it ended, so the line does not push the table off the screen; the log holds each with its rules.
const EVENTS_SAID = 4;

function eventsSaid(events, action) {
  const said = events.map((e) => e.message);
  if (!said.length) return JSON.stringify(action);
  if (said.length <= EVENTS_SAID) return said.join("; ");
  return `${said.slice(0, 2).join("; ")}; ...; ${said[said.length - 1]} (${said.length} events: the log has each, with its rules)`;
}

async function play(action) {
  let dice;
  try { dice = diceChoice(); } catch (e) { say(e.message); return; }
  busy(true);
  try {
    const answer = await api("POST", tablePath("/play"), { actions: [action], ...dice });
    clearProposal();
    tableChanged();
    show(answer.table);
    const seed = answer.result.seed === null ? "typed-in dice" : `seed ${answer.result.seed}`;
    say(`applied (${seed}): ${eventsSaid(answer.result.log[0].events, action)}`
      + (answer.result.unused_dice ? `; ${answer.result.unused_dice} typed-in ${answer.result.unused_dice === 1 ? "die" : "dice"} `
        + `not used: ${answer.result.unused_faces.join(", ")}` : ""), "info");
  } catch (e) {
    showRefusal(action, e.message, e.data);
    say(e.message);
  } finally { busy(false); }
}

async function undo() {
  try {
    const answer = await api("POST", tablePath("/undo"));
    show(answer);
    clearProposal();
    tableChanged();
    say(`undone: ${JSON.stringify(answer.undone)}`, "info");
  } catch (e) { say(e.message); }
}

// ---------------------------------------------------------------- jobs: odds, simulate --
// A job whose answer the page will not show (another asked for, or the table changed under it) is cancelled on the
// server: left running, it would take a core from every later question for an answer nobody sees.
function dropJob() {
  const id = ui.job;
  if (!id) return;
  ui.job = null;
  $("progress").hidden = true;
  api("DELETE", `/api/jobs/${id}`).catch(() => {});
}

// The table changed (an action applied or undone, a table opened): odds and a simulation of it as it stood are no
// longer its answers, so they go, and a job still working on them is cancelled.
function tableChanged() {
  dropJob();
  $("odds").replaceChildren();
  $("simulation").replaceChildren();
}

// What a job's end said ("cancelled") is of that job: the next job's progress and answer are not shown beside it.
function sayJobEnded(text, kind) {
  say(text, kind);
  $("message").dataset.job = "ended";
}

async function followJob(job, render) {
  ui.job = job.id;
  if ($("message").dataset.job) say("");
  $("progress").hidden = false;
  const bar = $("progress-bar");
  while (ui.job === job.id) {
    if (job.total) { bar.max = job.total; bar.value = job.done; } else { bar.removeAttribute("value"); }
    // a count once there is one (runs done of runs asked, rules-code runs): the seconds only while none has moved
    $("progress-label").textContent = job.done ? job.label : `${job.label} (${job.seconds}s)`;
    if (job.status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, 150));
    try { job = await request("GET", `/api/jobs/${job.id}`); } catch (e) { say(e.message); break; }
  }
  // dropped (another job asked for, or the table changed): its end, even an answer that came meanwhile, is not shown
  if (ui.job !== job.id) return job;
  ui.job = null;
  $("progress").hidden = true;
  if (job.status === "done") { clearError(); render(job.result); }
  else if (job.status === "failed") say(job.error || "the job failed");
  else if (job.status === "cancelled") sayJobEnded("cancelled", "info");
  return job;
}

async function startOdds(action) {
  dropJob();
  $("odds").replaceChildren();
  try {
    const job = await api("POST", tablePath("/odds"), { action, runs: Number($("odds-runs").value),
      max_branches: Number($("odds-max").value) });
    await followJob(job, renderOdds);
  } catch (e) { showRefusal(action, e.message, e.data); say(e.message); }
}

const LONG_FRACTION = 15;  // characters: 12345/1679616 is read at a glance, 1203558558845636611/18855585640698016 is not

// An outcome naming a unit's status ("spearmen: no_charge") in a player's words, for hover; other outcomes as they are.
function outcomeWords(label) {
  const m = /^(.+): (\w+)$/.exec(label);
  const known = m && ui.view.statuses.find((s) => s.id === m[2]);
  return known ? `${m[1]}: ${known.words}` : label;
}

function renderOdds(answer) {
  const result = answer.result;
  const box = $("odds");
  box.replaceChildren();
  box.dataset.exact = String(result.exact);
  box.append(el("code", {}, JSON.stringify(result.action)));
  box.append(el("div", { class: "method" }, (result.exact ? "Exact: " : "Monte Carlo estimate: ") + result.method));
  const table = el("table", { class: "odds" });
  for (const [name, p] of Object.entries(result.rows)) {
    const tr = el("tr", { "data-row": name });
    tr.append(el("td", { title: outcomeWords(name) }, name));
    // an exact fraction of more digits than anyone reads is kept whole on hover; the percentage beside it is its value
    const long = typeof p !== "object" && p.length > LONG_FRACTION;
    const text = typeof p === "object" ? `~${p.estimate.toFixed(4)} (95% CI ${p.ci95[0].toFixed(4)}-${p.ci95[1].toFixed(4)})`
      : long ? "exact (hover for the fraction)" : p;
    tr.append(el("td", { class: "p", "data-p": typeof p === "object" ? JSON.stringify(p) : p, title: long ? p : undefined }, text));
    tr.append(el("td", { class: "p" }, `${(fractionValue(p) * 100).toFixed(2)}%`));
    const cell = el("td", { class: "barcell" });
    cell.append(el("span", { class: "bar", style: `width:${(fractionValue(p) * 100).toFixed(2)}%` }));
    tr.append(cell);
    table.append(tr);
  }
  box.append(table);
  // how the status rows read: a unit the action gave a status and then destroyed counts (simulate reads the end)
  if (result.status_rows) box.append(el("div", { class: "reading" }, result.status_rows));
  for (const [unit, mean] of Object.entries(result.mean_models_slain || {})) {
    box.append(el("div", {}, `mean models slain in ${unit}: ${mean}`));
  }
  for (const n of result.notes || []) box.append(noteLine(n, answer.clauses));  // what the odds leave out, and why
}

async function simulate() {
  dropJob();
  const box = $("simulation");
  box.replaceChildren();
  try {
    const body = { runs: Number($("sim-runs").value), seed: Number($("sim-seed").value) };
    const workers = Number($("sim-workers").value);
    if (workers > 1) body.workers = workers;  // one process unless asked: the server's other tables share its cores
    const job = await api("POST", tablePath("/simulate"), body);
    await followJob(job, (answer) => {
      const result = answer.result;
      const played = result.policy === "plan" ? "the table's plan" : "the default policy (simple: the table has no plan)";
      // as simulate says it: why there is no exact column, when the chance tree was too large to enumerate
      const exact = result.too_large ? `no exact column: ${result.too_large}`
        : "exact values beside them where the chance tree was enumerated";
      const on = answer.workers > 1 ? ` on ${answer.workers} processes` : "";
      box.append(el("div", { class: "method" }, `Monte Carlo: ${result.runs} runs of ${played}, seed ${result.seed}, method ${result.method}${on}; `
        + `95% intervals; ${exact}`));
      const table = el("table", { class: "odds" });
      for (const row of result.outcomes || []) {
        // as simulate's table says it: a flag (a value of null) is its name alone, not "= null"
        const label = row.value === null ? row.outcome : `${row.outcome} = ${row.value}`;
        const tr = el("tr", { "data-row": label });
        tr.append(el("td", { title: outcomeWords(label) }, label));
        tr.append(el("td", { class: "p" }, `${(row.probability * 100).toFixed(2)}%`));
        tr.append(el("td", { class: "p" }, `${(row.ci95[0] * 100).toFixed(2)}-${(row.ci95[1] * 100).toFixed(2)}%`));
        tr.append(el("td", { class: "p" }, row.exact !== null ? `exact ${row.exact}` : ""));
        table.append(tr);
      }
      box.append(table);
    });
  } catch (e) { say(e.message); }
}

async function cancelJob() {
  if (!ui.job) return;
  try { await api("DELETE", `/api/jobs/${ui.job}`); } catch (e) { say(e.message); }
}

// ---------------------------------------------------------------- dragging --------
function tablePoint(evt) {
  const svg = $("table");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, ui.view.table.depth - p.y];
}

function round2(v) { return Math.round(v * 100) / 100; }

// The friendly unit a character dropped at ``at`` would join: one of its models within 2" edge to edge.
function nearbyUnit(character, at) {
  const r = character.models[0].base.width / 2;
  let best = null, bestGap = 2.0;
  for (const u of ui.view.units) {
    if (u.id === character.id || u.side !== character.side || u.character || !u.alive) continue;
    for (const m of u.models) {
      const gap = Math.hypot(m.x - at[0], m.y - at[1]) - r - Math.max(m.base.width, m.base.depth) / 2;
      if (gap <= bestGap) { bestGap = gap; best = u; }
    }
  }
  return best;
}

function proposedAction(drag, dx, dy, evt) {
  const u = unitById(drag.unit);
  // A 9th Age unit in formation moves by its front centre (published.t9a-move), not by a point per model.
  const moved = u.formation ? [[round2(u.formation.position[0] + dx), round2(u.formation.position[1] + dy)]]
    : u.models.map((m) => [round2(m.x + dx), round2(m.y + dy)]);
  if (u.character) {
    const under = document.elementsFromPoint(evt.clientX, evt.clientY)
      .map((n) => n.dataset && n.dataset.unit).find((id) => id && id !== u.id);
    const host = (under && unitById(under)) || nearbyUnit(u, moved[0]);
    if (host && host.side === u.side && !host.character && host.id !== u.joined) {
      // a Deployment places him in the unit (t9a.join.deploy): no contact point to move through
      return ui.view.phase === "deployment" ? { do: "join", character: u.id, unit: host.id }
        : { do: "join", character: u.id, unit: host.id, to: moved[0] };
    }
    if (u.joined) return { do: "leave", character: u.id, to: moved[0] };
  }
  const kind = placingKind();
  // a 9th Age march is asked for, not guessed from the distance: the page decides no rule
  return kind === "move" && marching() ? { do: kind, unit: u.id, to: moved, march: true } : { do: kind, unit: u.id, to: moved };
}

function marching() { return ui.view.ruleset === "t9a" && $("march").checked; }

// What a drag of a unit proposes in this phase: 40k's Shooting phase places a run (Fleet), its Assault phase a
// consolidation, a Deployment phase an infiltration; any other phase a move (the server rules on each).
const DRAGGED_40K = { shooting: "run", assault: "consolidate", deployment: "infiltrate" };

function placingKind() {
  return (ui.view.ruleset.startsWith("40k") && DRAGGED_40K[ui.view.phase]) || "move";
}

async function onKeyDown(evt) {
  const unit = evt.target.dataset && evt.target.dataset.unit;
  if (!unit || (evt.key !== "Enter" && evt.key !== " ")) return;
  evt.preventDefault();
  const selecting = select(unit);  // the table is drawn again: the unit's new drawing takes the focus
  const g = document.querySelector(`#table .unit[data-unit="${CSS.escape(unit)}"]`);
  if (g) g.focus();
  await selecting;
}

function onPointerDown(evt) {
  const target = evt.target;
  if (!target.dataset || !target.dataset.unit) { if (ui.selected) select(null); return; }  // the bare table: deselect
  evt.preventDefault();
  const unit = target.dataset.unit;
  const g = document.querySelector(`#table .unit[data-unit="${CSS.escape(unit)}"]`);
  if (ui.ghost) { ui.ghost.remove(); ui.ghost = null; }
  const ghost = g.cloneNode(true);
  ghost.classList.remove("selected", "target-legal", "target-illegal");
  ghost.classList.add("ghost");
  ghost.removeAttribute("data-unit");
  for (const a of ["tabindex", "role", "aria-label"]) ghost.removeAttribute(a);
  for (const n of ghost.querySelectorAll("[data-unit], [data-model]")) { n.removeAttribute("data-unit"); n.removeAttribute("data-model"); }
  $("table").append(ghost);
  ui.drag = { unit, start: tablePoint(evt), ghost, moved: false, inflight: false, pending: null };
  $("table").setPointerCapture(evt.pointerId);
}

function liveCheck(action) {
  const d = ui.drag;
  if (!d) return;
  if (d.inflight) { d.pending = action; return; }
  d.inflight = true;
  propose(action).finally(() => {
    d.inflight = false;
    if (d.pending) { const next = d.pending; d.pending = null; if (ui.drag === d) liveCheck(next); }
  });
}

function onPointerMove(evt) {
  const d = ui.drag;
  if (!d) return;
  const [x, y] = tablePoint(evt);
  const dx = x - d.start[0], dy = y - d.start[1];
  if (Math.hypot(dx, dy) > 0.1) d.moved = true;
  d.ghost.setAttribute("transform", `translate(${dx} ${-dy})`);
  if (d.moved) {
    d.last = proposedAction(d, dx, dy, evt);
    liveCheck(d.last);
  }
}

async function onPointerUp(evt) {
  const d = ui.drag;
  if (!d) return;
  ui.drag = null;
  if (!d.moved) { d.ghost.remove(); await select(d.unit); return; }
  if (ui.ghost && ui.ghost !== d.ghost) ui.ghost.remove();
  ui.ghost = d.ghost;  // the proposal stays drawn where it was dropped until applied or cleared
  const [x, y] = tablePoint(evt);
  const action = proposedAction(d, x - d.start[0], y - d.start[1], evt);
  await propose(action);
}

// ---------------------------------------------------------------- the scenario form --
const UNIT_TYPES = ["infantry", "jump_infantry", "cavalry", "bike", "monstrous_creature", "vehicle"];

// A unit's statuses as boxes to tick, each in a player's words (the statuses this game reads, from the server).
function statusPicker(path, current) {
  const wrap = el("div", { class: "field status-field" });
  const box = el("details", { "data-path": path, "data-kind": "statuses" });
  box.append(el("summary", {}, `status: ${current.map((s) => statusOf(s).words).join("; ") || "none"}`));
  const known = ui.view.statuses.map((s) => s.id);
  for (const id of [...known, ...current.filter((s) => !known.includes(s))]) {
    const label = el("label", { class: "status-choice", title: id });
    const tick = el("input", { type: "checkbox", value: id });
    tick.checked = current.includes(id);
    label.append(tick, document.createTextNode(` ${statusOf(id).words}`));
    box.append(label);
  }
  wrap.append(box, el("span", { class: "field-error", "data-error-for": path }));
  return wrap;
}

function field(label, path, value, attrs) {
  const wrap = el("label", { class: "field" }, `${label} `);
  const input = el("input", { "data-path": path, value: value === undefined || value === null ? "" : String(value), ...(attrs || {}) });
  wrap.append(input, el("span", { class: "field-error", "data-error-for": path }));
  return wrap;
}

async function openEditor() {
  try {
    const data = await api("GET", tablePath("/scenario?format=json"));
    ui.editing = data;
    const box = $("edit-fields");
    box.replaceChildren();
    $("edit-error").textContent = "";
    const top = el("fieldset");
    top.append(el("legend", {}, "game"));
    top.append(field("turn", "turn", data.turn, { type: "number" }), field("phase", "phase", data.phase),
      field("active", "active", data.active));
    box.append(top);
    for (const [side, units] of Object.entries(data.sides)) {
      units.forEach((u, i) => {
        const where = `sides.${side}[${i}]`;
        const fs = el("fieldset", { "data-unit": u.id, "data-alt": `sides.${side}[${u.id}]` });
        fs.append(el("legend", {}, `${side}: ${u.id}`));
        const type = el("select", { "data-path": `${where}.type` });
        for (const t of UNIT_TYPES) type.append(el("option", t === u.type ? { value: t, selected: "" } : { value: t }, t));
        const tl = el("label", {}, "type "); tl.append(type, el("span", { class: "field-error", "data-error-for": `${where}.type` }));
        fs.append(field("id", `${where}.id`, u.id), tl,
          field("rules", `${where}.rules`, (u.rules || []).join(", "), { title: "comma-separated" }),
          statusPicker(`${where}.status`, u.status || []));
        (u.models || []).forEach((m, j) => {
          const mw = `${where}.models[${j}]`;
          const row = el("div", { class: "model-row" });
          row.append(field("name", `${mw}.name`, m.name), field("profile", `${mw}.profile`, m.profile, { size: 48 }),
            field("base", `${mw}.base`, JSON.stringify(m.base), { size: 8, title: "25 (round, mm) or [width, depth]" }),
            field("at", `${mw}.at`, (m.at || []).join(", "), { size: 10 }),
            field("wounds taken", `${mw}.wounds_taken`, m.wounds_taken || 0, { type: "number", size: 3 }));
          fs.append(row);
        });
        box.append(fs);
      });
    }
    $("editor").showModal();
  } catch (e) { say(e.message); }
}

function setPath(data, path, value) {
  const parts = path.replace(/\[(\w+)\]/g, ".$1").split(".");
  let obj = data;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = /^\d+$/.test(parts[i]) ? Number(parts[i]) : parts[i];
    obj = obj[k];
  }
  obj[parts[parts.length - 1]] = value;
}

function readField(path, raw) {
  const last = path.split(".").pop();
  if (last === "rules") return raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (last === "turn" || last === "wounds_taken") return raw.trim() === "" ? raw : Number(raw);
  if (last === "base") { try { return JSON.parse(raw); } catch (e) { return raw; } }
  if (last === "at") {
    const parts = raw.split(",").map((s) => s.trim());
    return parts.length === 2 && parts.every((s) => s !== "" && !isNaN(Number(s))) ? parts.map(Number) : raw;
  }
  return raw;
}

async function saveEditor() {
  const data = JSON.parse(JSON.stringify(ui.editing));
  for (const node of document.querySelectorAll("#edit-fields [data-path]")) {
    node.classList.remove("bad");
    const value = node.dataset.kind === "statuses"
      ? [...node.querySelectorAll("input:checked")].map((tick) => tick.value) : readField(node.dataset.path, node.value);
    setPath(data, node.dataset.path, value);
  }
  for (const span of document.querySelectorAll("#edit-fields .field-error")) span.textContent = "";
  $("edit-error").textContent = "";
  const played = ui.view.can_undo;  // the new table starts from the edited state: what was played is not carried
  try {
    const view = await openTable({ scenario: data, filename: ui.view.name });
    $("editor").close();
    sayNotes(view, "edits applied: a new table from the edited scenario"
      + (played ? " (Undo and Download game start from here: download the game before editing to keep it)" : ""));
  } catch (e) {
    const path = e.data && e.data.field;
    let input = path ? document.querySelector(`#edit-fields [data-path="${CSS.escape(path)}"]`) : null;
    if (!input && path) {
      // Placement errors name the unit by id: sides.red[tactical].models[0].at
      const m = path.match(/^sides\.([^\[]+)\[([^\]]+)\](.*)$/);
      if (m) {
        const fs = document.querySelector(`#edit-fields fieldset[data-alt="${CSS.escape(`sides.${m[1]}[${m[2]}]`)}"]`);
        if (fs) input = fs.querySelector(`[data-path$="${CSS.escape(m[3])}"]`);
      }
    }
    if (input) {
      input.classList.add("bad");
      const span = input.parentElement.querySelector(".field-error");
      span.textContent = e.message;
      if (input.dataset.kind === "statuses") input.open = true;
      input.focus();
    } else {
      $("edit-error").textContent = e.message;
    }
  }
}

// ---------------------------------------------------------------- start -----------
async function upload(evt) {
  const file = evt.target.files[0];
  if (!file) return;
  const text = await waitingOn(file.text());
  try {
    const view = await openTable({ text, filename: file.name });
    sayNotes(view, `opened ${file.name}${view.record_said ? `: ${view.record_said}` : ""}`);
  } catch (e) { /* shown */ }
  evt.target.value = "";
}

// Fetch the scenario (or the game as played: with record=true) before saving it, so that a refusal (a table the server
// lost) is said, not dropped by the browser.
async function download(evt) {
  evt.preventDefault();
  const path = tablePath(`/scenario?format=yaml&download=true${evt.currentTarget.id === "download-game" ? "&record=true" : ""}`);
  await waitingOn(save(path).catch((e) => say(e.message)));
}

async function save(path) {
  const response = await fetch(path);
  if (!response.ok) throw await failure(response, path);
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: named ? named[1] : "scenario.yaml" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

function jsonAction() {
  try { return JSON.parse($("action-json").value); } catch (e) { say(`action: not valid JSON (${e.message})`); return null; }
}

async function start() {
  const svg = $("table");
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("keydown", onKeyDown);
  $("open-demo").onclick = () => openTable({ demo: $("demo-select").value });
  $("upload").onchange = upload;
  $("download").onclick = download;
  $("download-game").onclick = download;
  $("whole-table").onchange = draw;
  $("undo").onclick = undo;
  $("cancel").onclick = cancelJob;
  $("simulate").onclick = simulate;
  $("edit").onclick = openEditor;
  $("edit-save").onclick = saveEditor;
  $("edit-close").onclick = () => $("editor").close();
  $("proposal-apply").onclick = () => ui.proposal && play(ui.proposal);
  $("proposal-odds").onclick = () => ui.proposal && startOdds(ui.proposal);
  $("proposal-clear").onclick = clearProposal;
  $("json-check").onclick = () => { const a = jsonAction(); if (a) propose(a); };
  $("json-odds").onclick = () => { const a = jsonAction(); if (a) startOdds(a); };
  $("json-apply").onclick = () => { const a = jsonAction(); if (a) play(a); };
  const server = await api("GET", "/api/server");  // the processes a simulation may ask for: 1 to the server's cores
  for (let n = 2; n <= server.cores; n++) $("sim-workers").append(el("option", { value: String(n) }, String(n)));
  const { demos } = await api("GET", "/api/demos");
  for (const d of demos) $("demo-select").append(el("option", { value: d }, d));
  const wanted = new URLSearchParams(location.search).get("table");
  try {
    if (wanted) {  // a table opened already (serve's link): its notes are said as a load's are
      const view = await api("GET", `/api/tables/${encodeURIComponent(wanted)}`);
      show(view);
      sayNotes(view, view.record_said);
    } else { await openTable({ demo: demos[0] }); }
  } catch (e) {
    await openTable({ demo: demos[0] });
    if (wanted) say(`${e.message}; opened the demo ${demos[0]} instead`);
  }
  document.body.dataset.ready = "true";
}

start();
