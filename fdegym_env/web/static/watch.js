// Step through a recording: action, observation, reward, clock and cost so far; the verdict at the end.
(function () {
  const rec = window.RECORDING;
  const $ = (id) => document.getElementById(id);
  let pos = 0;
  function fmt(x, d) { return x === null || x === undefined ? "-" : Number(x).toFixed(d); }
  function render() {
    $("watch-pos").textContent = pos;
    if (pos === 0) {
      $("watch-action").textContent = "(reset: the brief)";
      $("watch-text").textContent = rec.brief;
      $("watch-reward").textContent = "-"; $("watch-return").textContent = "0"; $("watch-cost").textContent = "0";
      $("watch-clock").textContent = "-";
    } else {
      const s = rec.steps[pos - 1];
      $("watch-action").textContent = JSON.stringify(s.action, null, 2) + (s.error ? `\n\ninvalid: ${s.error}` : "");
      $("watch-text").textContent = s.text;
      $("watch-reward").textContent = fmt(s.reward, 4);
      $("watch-return").textContent = fmt(s.return, 4);
      $("watch-cost").textContent = fmt(s.contact_cost, 3);
      $("watch-clock").textContent = s.customer_time || (s.hours !== undefined ? `${fmt(s.hours, 1)} h` : "-");
    }
    const v = $("watch-verdict");
    if (pos === rec.steps.length && rec.result) {
      const r = rec.result;
      v.classList.remove("hidden");
      v.replaceChildren();
      const h = document.createElement("h2");
      h.textContent = `Verdict: score ${fmt(r.score, 3)} (uplift ${fmt(r.uplift, 3)}, contact cost ${fmt(r.contact_cost, 3)}) — ${r.resolved ? "resolved" : "not resolved"}`;
      h.id = "watch-verdict-line";
      const p = document.createElement("p");
      p.textContent = `incidents: ${(r.incidents || []).join("; ") || "none"} · ${r.metric ? r.metric.name : "kpi"} ${r.kpi} (as found ${r.kpi_baseline}, reference ${r.kpi_reference}) · ended: ${r.end_reason}`;
      v.append(h, p);
    } else { v.classList.add("hidden"); }
  }
  const go = (n) => { pos = Math.max(0, Math.min(rec.steps.length, n)); render(); };
  $("watch-first").addEventListener("click", () => go(0));
  $("watch-prev").addEventListener("click", () => go(pos - 1));
  $("watch-next").addEventListener("click", () => go(pos + 1));
  $("watch-last").addEventListener("click", () => go(rec.steps.length));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") go(pos + 1); if (e.key === "ArrowLeft") go(pos - 1); });
  render();
})();
