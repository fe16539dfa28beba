// The work page: every button is one env action through POST /api/work/<id>/act.
(function () {
  const eid = window.FDEGYM.eid;
  const $ = (id) => document.getElementById(id);
  let chatWith = null;
  let busy = false;
  let lastStatus = window.FDEGYM.status || null;
  let pendingWait = null;

  // One action at a time. The page shows an action's result (the turn counter included) only once
  // the state after it has been fetched too, and is ready for the next action in that same moment:
  // a click that follows the counter is never dropped as "busy".
  async function act(action, confirmed = false) {
    if (busy) return null;
    const risk = confirmed ? null : endRisk(action);
    if (risk && !(await ask(risk))) return null;
    busy = true;
    document.body.classList.add("busy");
    try {
      const resp = await fetch(`/api/work/${eid}/act`, {method: "POST", headers: {"Content-Type": "application/json"},
                                                       body: JSON.stringify(action)});
      const out = await resp.json();
      if (!resp.ok) { show(`Error: ${out.error}`); return null; }
      const st = await fetchState();
      busy = false;
      document.body.classList.remove("busy");
      show(out.text);
      if (st) render(st);
      status(out);
      if (out.terminated && out.verdict_url) { window.location = out.verdict_url; }
      return out;
    } finally { busy = false; document.body.classList.remove("busy"); }
  }

  // An action that can end the episode asks first: the last turn, or a trial day that uses up the
  // engagement's customer hours (submit and wait have their own dialogs).
  function endRisk(action) {
    const s = lastStatus;
    if (!s || s.done || action.tool === "submit") return null;
    if (s.turns_left <= 1) {
      return `This is your last action (turn ${s.max_turns} of ${s.max_turns}): after it, system/ is deployed as it stands and the episode ends. Go ahead?`;
    }
    if (action.tool === "trial" && s.trial_hours && s.hours_left !== null && s.hours_left !== undefined && s.trial_hours >= s.hours_left) {
      return `A trial day takes ${s.trial_hours} customer hours and ${s.hours_left} are left: it ends the engagement, and system/ is deployed as it stands. Run it anyway?`;
    }
    return null;
  }
  function ask(text) {
    const dialog = $("confirm-end");
    $("confirm-end-text").textContent = text;
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), {once: true});
      dialog.returnValue = "";
      dialog.showModal();
    });
  }

  function show(text) { selectTab("output"); $("output").textContent = text; $("output").scrollTop = 0; }
  function status(s) {
    $("status-turn").textContent = s.turn;
    $("status-clock").textContent = s.customer_time || "no calendar";
    if ($("status-cost") && s.contact_cost !== null && s.contact_cost !== undefined) $("status-cost").textContent = Number(s.contact_cost).toFixed(3);
    $("status-inbox").textContent = s.inbox_new;
    lastStatus = s;
    if ($("status-turns-left")) $("status-turns-left").textContent = s.turns_left;
    if ($("status-hours-left") && s.hours_left !== null && s.hours_left !== undefined) $("status-hours-left").textContent = s.hours_left;
    const warn = $("limit-warning");
    if (warn) { warn.textContent = (s.warnings || []).join(" · "); warn.classList.toggle("hidden", !(s.warnings || []).length); }
  }

  let stateSeq = 0;
  async function fetchState() {           // null for an answer overtaken by a later request (never drawn stale)
    const seq = ++stateSeq;
    const resp = await fetch(`/api/work/${eid}/state`);
    const st = resp.ok ? await resp.json() : null;
    return seq === stateSeq ? st : null;
  }
  async function refresh() {
    const st = await fetchState();
    if (st) render(st);
  }
  function render(st) {
    status(st.status);
    const tree = $("file-tree");
    tree.replaceChildren(...st.files.map((f) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#"; a.className = "file"; a.dataset.path = f.path; a.textContent = f.path; a.title = f.path;
      const size = document.createElement("span"); size.className = "muted"; size.textContent = ` ${f.size} B`;
      li.append(a, size); return li;
    }));
    const list = $("people-list");
    list.replaceChildren(...st.directory.map((p) => {
      const li = document.createElement("li");
      li.dataset.person = p.id;
      li.textContent = `${p.name} — ${p.role}`;
      li.title = p.blurb;
      if (!p.reachable) { li.classList.add("gone"); li.textContent += ` (${p.gone})`; }
      li.addEventListener("click", () => openChat(p.id, p.name, st.chats[p.id] || []));
      return li;
    }));
    $("inbox-thread").replaceChildren(...(st.inbox || []).map((m) => {
      const d = document.createElement("div"); d.className = "inbox-item";
      const at = document.createElement("span"); at.className = "muted"; at.textContent = m.at;
      const pre = document.createElement("pre"); pre.textContent = m.text;
      d.append(at, pre); return d;
    }));
    if (chatWith) renderChat(st.chats[chatWith] || []);
    $("timeline").replaceChildren(...st.timeline.map((t) => {
      const li = document.createElement("li");
      li.value = t.turn;
      li.textContent = `${t.tool}(${t.args})${t.reward ? "  " + t.reward.toFixed(3) : ""}${t.customer_time ? "  · " + t.customer_time : ""}`;
      if (!t.valid) li.classList.add("invalid");
      return li;
    }));
  }

  function openChat(id, name, msgs) {
    chatWith = id;
    $("chat").classList.remove("hidden");
    $("chat-with").textContent = `Message ${name}`;
    renderChat(msgs);
  }
  function renderChat(msgs) {
    $("chat-log").replaceChildren(...msgs.map((m) => {
      const d = document.createElement("div"); d.className = m.from; d.textContent = m.text; return d;
    }));
  }

  function selectTab(name) {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
    document.querySelectorAll(".tabpane").forEach((p) => p.classList.toggle("hidden", p.id !== `tab-${name}`));
  }
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => selectTab(t.dataset.tab)));

  async function openInEditor(path) {
    const resp = await fetch(`/api/work/${eid}/file?path=${encodeURIComponent(path)}`);
    const out = await resp.json();
    if (!resp.ok) { show(`Error: ${out.error}`); return; }
    $("editor-path").value = out.path; $("editor").value = out.content; selectTab("editor");
    if (CM) { $("editor").classList.add("hidden"); CM.open($("cm-editor"), out.content, save); diffOn = false; }
  }
  // CodeMirror (static/editor.bundle.js) when it loaded; the plain textarea otherwise.
  const CM = window.FdegymEditor || null;
  let diffOn = false;
  function editorText() { return CM && $("editor").classList.contains("hidden") ? CM.value() : $("editor").value; }
  async function save() {
    const path = $("editor-path").value.trim();
    if (!path) return;
    const content = editorText();
    $("editor").value = content;
    const out = await act({tool: "write_file", path, content});
    if (out && out.valid && CM) CM.saved(content);
    selectTab("editor");
  }

  $("file-tree").addEventListener("click", async (ev) => {
    const a = ev.target.closest("a.file");
    if (!a) return;
    ev.preventDefault();
    await act({tool: "read_file", path: a.dataset.path});
    $("editor-path").value = a.dataset.path;
  });
  $("btn-open").addEventListener("click", async () => {
    // One read at most: a file already read this episode opens without another turn.
    const path = $("editor-path").value.trim();
    if (!path) return;
    const probe = await fetch(`/api/work/${eid}/file?path=${encodeURIComponent(path)}`);
    if (probe.ok) { await openInEditor(path); return; }
    const out = await act({tool: "read_file", path});
    if (out && out.valid) await openInEditor(path);
  });
  $("btn-save").addEventListener("click", save);
  $("btn-revert").addEventListener("click", () => { if (CM) { CM.revert($("cm-editor")); diffOn = false; } });
  $("btn-diff").addEventListener("click", () => { if (CM) { diffOn = !diffOn; CM.diff($("cm-editor"), diffOn); } });
  // The terminal keeps its scrollback (every command and output) and a history (Up/Down).
  const history = [];
  let historyAt = 0;
  $("terminal").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const command = $("command").value.trim();
    if (!command) return;
    history.push(command); historyAt = history.length;
    $("command").value = "";
    const out = await act({tool: "run", command});
    const log = $("terminal-log");
    const text = out ? out.text : "(not run)";           // the env's answer starts "$ <command>" already
    log.textContent += `${text.startsWith(`$ ${command}`) ? "" : `$ ${command}\n`}${text}\n`;
    selectTab("terminal");
    log.scrollTop = log.scrollHeight;
  });
  $("command").addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowUp" && ev.key !== "ArrowDown") return;
    ev.preventDefault();
    historyAt = Math.max(0, Math.min(history.length, historyAt + (ev.key === "ArrowUp" ? -1 : 1)));
    $("command").value = history[historyAt] || "";
  });
  if ($("btn-hint")) $("btn-hint").addEventListener("click", async () => {
    const resp = await fetch(`/api/work/${eid}/hint`, {method: "POST"});
    const out = await resp.json();
    if (!resp.ok) { show(`Error: ${out.error}`); return; }
    const d = document.createElement("div"); d.className = "hint";
    const b = document.createElement("strong"); b.textContent = `${out.rung}: `;
    d.append(b, document.createTextNode(out.text)); $("hints").append(d);
  });
  $("btn-directory").addEventListener("click", () => act({tool: "directory"}));
  $("btn-inbox").addEventListener("click", () => act({tool: "inbox"}));
  $("btn-wait").addEventListener("click", () => {
    // Waiting moves the customer's clock for good and can end the engagement: ask first.
    const hours = Number($("wait-hours").value);
    const max = lastStatus ? lastStatus.wait_max_hours : 336;
    if (!(hours > 0) || hours > max) { show(`Error: one wait is between 0 and ${max} hours (the tool's limit), got ${$("wait-hours").value}; wait several times if you need longer.`); return; }
    const left = lastStatus ? lastStatus.hours_left : null;
    let text = `Wait ${hours} customer hour(s)? The clock cannot be turned back.`;
    if (left !== null && left !== undefined && hours >= left) text = `Waiting ${hours} h reaches the end of the engagement (${left} h left): system/ is deployed as it stands and the episode ends. Wait anyway?`;
    else if (lastStatus && lastStatus.turns_left <= 1) text = `Waiting is your last action (turn ${lastStatus.max_turns} of ${lastStatus.max_turns}): after it, system/ is deployed as it stands and the episode ends. Wait ${hours} customer hour(s) anyway?`;
    pendingWait = hours;
    $("confirm-wait-text").textContent = text;
    $("confirm-wait").showModal();
  });
  $("confirm-wait").addEventListener("close", () => {
    if ($("confirm-wait").returnValue === "ok" && pendingWait !== null) act({tool: "wait", hours: pendingWait}, true);
    pendingWait = null;
  });
  $("btn-trial").addEventListener("click", () => act({tool: "trial"}));
  $("chat-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const message = $("chat-message").value.trim();
    if (!message || !chatWith) return;
    const out = await act({tool: "contact", to: chatWith, message});
    if (out) $("chat-message").value = "";
  });
  $("btn-submit").addEventListener("click", () => $("confirm-submit").showModal());
  $("confirm-submit").addEventListener("close", () => {
    if ($("confirm-submit").returnValue === "ok") act({tool: "submit", note: $("submit-note").value}, true);
  });
  refresh();
})();
