// optjudge pages: live updates from the API's event streams, and the
// submit form's helpers. Plain JavaScript, no build step. Everything it
// writes into the page goes through textContent or attributes, never HTML,
// but for the statement, which is the server's own rendered HTML.
"use strict";

(function () {
  const body = document.body;
  const words = JSON.parse(body.dataset.verdicts || "{}");
  const $ = (id) => document.getElementById(id);

  // el makes an element: el("td", {class: "num"}, "12 ms", child, ...).
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids) {
      if (k !== undefined && k !== null) e.append(k);
    }
    return e;
  }

  // verdict is a verdict's badge: its colour, its short name and its words.
  function verdict(v) {
    const w = words[v] || v;
    return el("span", {class: "v v-" + v, title: w}, el("b", {}, v), " ", el("span", {class: "words"}, w));
  }

  // status is a submission's verdict once done, else its state.
  function status(sub) {
    if (sub.state === "done" && sub.score !== undefined && sub.score !== null) {
      const s = el("span", {}, verdict(sub.verdict), " ",
        el("span", {class: "score", title: "score"}, String(sub.score) + (sub.max_score != null ? " / " + sub.max_score : "")));
      return s;
    }
    if (sub.state === "done") return verdict(sub.verdict);
    return el("span", {class: "v v-" + sub.state}, el("b", {}, sub.state),
      sub.worker ? " " : null, sub.worker ? el("span", {class: "words"}, "on " + sub.worker) : null);
  }

  function when(iso) {
    return (iso || "").replace("T", " ").slice(0, 19);
  }

  function mib(kib) {
    if (kib < 1024) return kib + " KiB";
    return (kib % 1024 === 0 ? String(kib / 1024) : (kib / 1024).toFixed(1)) + " MiB";
  }

  function show(e, on) {
    if (e) e.hidden = !on;
  }

  async function getJSON(url) {
    const r = await fetch(url, {headers: {Accept: "application/json"}, credentials: "same-origin"});
    if (!r.ok) throw new Error(url + ": " + r.status);
    return r.json();
  }

  // ---- the list of submissions ----

  function listPage() {
    const table = $("subs");
    const tbody = table.tBodies[0];
    const problem = table.dataset.problem;
    const want = table.dataset.verdict;
    const users = table.dataset.users === "true";
    const limit = Number(table.dataset.limit) || 100;
    const labels = JSON.parse(table.dataset.labels || "{}");

    const d = table.dataset;
    const at = (v) => (v ? Date.parse(v + ":00Z") : NaN);
    const passes = (sub) => (!problem || sub.problem === problem) &&
      (!want || (want === "pending" ? sub.state !== "done" : sub.state === "done" && sub.verdict === want)) &&
      (!d.user || sub.user === d.user) && (!d.language || sub.language === d.language) &&
      (!d.from || Date.parse(sub.created_at) >= at(d.from)) && (!d.to || Date.parse(sub.created_at) < at(d.to));

    function row(sub) {
      return el("tr", {"data-id": sub.id},
        el("td", {}, el("a", {href: "/s/" + sub.id}, el("time", {datetime: sub.created_at}, when(sub.created_at)))),
        users ? el("td", {}, sub.user) : null,
        el("td", {}, labels[sub.problem] ? el("span", {class: "label label-" + sub.problem}, labels[sub.problem]) : null,
          labels[sub.problem] ? " " : null, sub.problem),
        el("td", {}, sub.language),
        el("td", {class: "status"}, status(sub)));
    }

    function upsert(sub, fresh) {
      const old = tbody.querySelector('tr[data-id="' + sub.id + '"]');
      if (!passes(sub)) {
        if (old) old.remove();
      } else if (old) {
        const cell = old.querySelector("td.status");
        const badge = status(sub);
        if (cell.textContent !== badge.textContent) {
          cell.replaceChildren(badge);
          old.classList.remove("fresh");
          void old.offsetWidth;
          old.classList.add("fresh");
        }
      } else {
        // newest first: before the first row submitted earlier
        const t = Date.parse(sub.created_at);
        const after = Array.from(tbody.rows).find((r) => Date.parse(r.querySelector("time").getAttribute("datetime")) < t);
        if (!after && tbody.rows.length >= limit) return;
        const r = row(sub);
        if (fresh) r.classList.add("fresh");
        tbody.insertBefore(r, after || null);
        while (tbody.rows.length > limit) tbody.deleteRow(-1);
      }
      show($("subs-empty"), tbody.rows.length === 0);
    }

    // what changed before the stream was open
    async function catchUp() {
      try {
        const q = new URLSearchParams({limit: String(limit)});
        if (problem) q.set("problem", problem);
        if (d.user) q.set("user", d.user);
        const list = await getJSON("/api/v1/submissions?" + q);
        for (const sub of list.submissions.slice().reverse()) upsert(sub, false);
      } catch (e) {
        // the next event or reconnection tries again
      }
    }

    const es = new EventSource("/api/v1/events");
    es.addEventListener("open", catchUp);
    es.addEventListener("submission", (ev) => upsert(JSON.parse(ev.data), true));
  }

  // ---- one submission ----

  function submissionPage() {
    const box = $("status");
    const id = box.dataset.id;
    let request = Number(box.dataset.request);
    const tbody = $("tests").tBodies[0];

    function testRow(n, t) {
      return el("tr", {"data-name": t.name},
        el("td", {}, String(n)),
        el("td", {}, t.name),
        el("td", {}, verdict(t.verdict)),
        el("td", {class: "num"}, t.time_ms + " ms"),
        el("td", {class: "num"}, mib(t.memory_kib)),
        el("td", {class: "msg"}, t.message || ""));
    }

    function addTest(t) {
      const old = Array.from(tbody.rows).find((r) => r.dataset.name === t.name);
      const n = old ? old.cells[0].textContent : tbody.rows.length + 1;
      const r = testRow(n, t);
      if (old) old.replaceWith(r);
      else tbody.append(r);
      show($("tests-empty"), false);
      $("progress").textContent = tbody.rows.length + " tests graded so far";
    }

    function clear() {
      tbody.replaceChildren();
      show($("tests-empty"), true);
      show($("failure"), false);
      show($("compile"), false);
    }

    function done(v) {
      $("state").replaceChildren(status(v));
      box.dataset.state = "done";
      const rep = v.report;
      if (!rep) return;
      tbody.replaceChildren();
      rep.tests.forEach((t, i) => tbody.append(testRow(i + 1, t)));
      show($("tests-empty"), rep.tests.length === 0);
      const s = rep.summary;
      $("progress").textContent = s.run + " of " + s.tests + " tests run, " + s.time_ms + " ms in all";
      if (rep.warning) {
        let w = $("warning");
        if (!w) {
          w = el("p", {class: "warning", id: "warning"});
          box.append(w);
        }
        w.textContent = rep.warning;
      }
      const ce = rep.verdict === "CE" || (!rep.compile.ok && rep.compile.message);
      $("compile-msg").textContent = ce ? rep.compile.message : "";
      show($("compile"), ce);
      failure(rep.tests.find((t) => t.verdict !== "AC"), v.failure);
    }

    function failure(first, f) {
      show($("failure"), !!first);
      if (!first) return;
      $("f-test").textContent = first.name;
      $("f-verdict").replaceChildren(verdict(first.verdict));
      $("f-msg").textContent = first.message || "";
      const mine = f && f.test === first.name ? f : null;
      const img = $("f-img");
      if (mine && mine.drawing) {
        img.alt = mine.description || "the case that went wrong";
        img.src = mine.drawing + "?r=" + request;
      }
      show($("f-figure"), !!(mine && mine.drawing));
      const io = mine && mine.input !== undefined;
      if (io) {
        $("f-in").textContent = mine.input;
        $("f-out").textContent = mine.output;
        $("f-in-size").textContent = mine.input_size + " bytes";
        $("f-out-size").textContent = mine.output_size + " bytes";
      }
      show($("f-io"), io);
    }

    function follow() {
      const es = new EventSource("/api/v1/submissions/" + id + "/events");
      es.addEventListener("state", (ev) => {
        const s = JSON.parse(ev.data);
        if (s.request !== request) {
          request = s.request;
          clear();
        }
        // "done" is marked by the done event, once the verdict is drawn
        if (s.state === "done") return;
        box.dataset.state = s.state;
        $("state").replaceChildren(status({state: s.state, worker: s.worker}));
        if (s.state === "running" && tbody.rows.length === 0) $("progress").textContent = "grading";
        if (s.state === "queued") $("progress").textContent = "waiting for a worker";
      });
      es.addEventListener("test", (ev) => addTest(JSON.parse(ev.data)));
      es.addEventListener("done", (ev) => {
        es.close(); // the stream ends here; a reconnection would start it over
        done(JSON.parse(ev.data));
      });
    }

    if (box.dataset.state !== "done") follow();
  }

  // ---- the submit form ----

  function submitPage() {
    const form = $("submit-form");
    const lang = $("language");
    const file = $("file");
    const filename = $("filename");
    const hint = $("lang-hint");
    const max = Number(form.dataset.max);
    const exts = JSON.parse(form.dataset.extensions || "{}");

    function guess() {
      const f = file.files && file.files[0];
      const name = f ? f.name : filename.value.trim();
      if (f && f.size > max) {
        $("file-hint").textContent = f.name + " is " + f.size + " bytes, over the limit of " + max + ".";
      }
      if (lang.value || !name) {
        hint.textContent = "";
        return;
      }
      const dot = name.lastIndexOf(".");
      const ext = dot >= 0 ? name.slice(dot).toLowerCase() : "";
      hint.textContent = exts[ext] ? "Judged as " + exts[ext] + " (" + ext + ")." :
        "No language is known for " + (ext || "a name without an extension") + ": choose one.";
    }
    file.addEventListener("change", guess);
    filename.addEventListener("input", guess);
    lang.addEventListener("change", guess);
    guess();

    const problem = $("problem");
    problem.addEventListener("change", async () => {
      const name = problem.value;
      history.replaceState(null, "", "/submit?problem=" + encodeURIComponent(name));
      try {
        const r = await fetch("/problems/" + encodeURIComponent(name) + "/statement", {credentials: "same-origin"});
        if (!r.ok || problem.value !== name) return;
        const doc = new DOMParser().parseFromString(await r.text(), "text/html");
        $("statement").replaceChildren(...doc.body.childNodes);
        document.querySelectorAll("#statement .md").forEach(typeset);
        languages();
      } catch (e) {
        // the statement stays as it was
      }
    });

    // the language choice: only the languages the problem takes
    function languages() {
      const box = $("statement").querySelector("[data-languages]");
      if (!box) return;
      const takes = new Set(JSON.parse(box.dataset.languages || "[]"));
      for (const o of lang.options) {
        if (!o.value) continue;
        const off = !takes.has(o.value);
        o.hidden = off;
        o.disabled = off;
        if (off && o.selected) lang.value = "";
      }
      guess();
    }
  }

  // ---- the queue, and a rejudge ----

  function every(ms, f) {
    let stop = false;
    const tick = async () => {
      if (stop) return;
      try {
        stop = (await f()) === true;
      } catch (e) {
        // tried again at the next tick
      }
      if (!stop) setTimeout(tick, ms);
    };
    setTimeout(tick, ms);
  }

  function ago(iso) {
    const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    return s < 60 ? s + "s ago" : Math.floor(s / 60) + "m" + (s % 60) + "s ago";
  }

  function queuePage() {
    every(2000, async () => {
      const q = await getJSON("/api/v1/queue");
      $("q-queued").textContent = q.queued;
      $("q-running").textContent = q.running;
      $("q-stream").textContent = q.stream_pending;
      const age = q.oldest_age_ms;
      $("q-oldest").textContent = q.oldest_queued ? (age < 1000 ? age + " ms" : (age / 1000).toFixed(1) + "s") : "none";
      const link = $("q-oldest-link");
      link.href = q.oldest_queued ? "/s/" + q.oldest_queued : "/";
      show(link, !!q.oldest_queued);
      const tbody = $("workers").tBodies[0];
      tbody.replaceChildren(...q.workers.map((w) => el("tr", {},
        el("td", {}, w.name), el("td", {}, w.host || ""),
        el("td", {}, el("span", {class: "w w-" + w.state}, w.state)),
        el("td", {}, w.submission ? el("a", {href: "/s/" + w.submission}, el("code", {}, w.submission)) : ""),
        el("td", {}, el("time", {datetime: w.last_heartbeat}, ago(w.last_heartbeat))),
        el("td", {class: "num"}, String(w.graded)))));
      show($("workers-empty"), q.workers.length === 0);
    });
  }

  function rejudgePage() {
    const box = $("rejudge");
    const url = "/api/v1/problems/" + encodeURIComponent(box.dataset.problem) + "/rejudges/" + encodeURIComponent(box.dataset.id);
    every(1500, async () => {
      const r = await getJSON(url);
      $("rj-progress").textContent = r.done + " of " + r.queued + " graded again" + (r.pending ? ", " + r.pending + " to go" : "");
      $("rj-summary").textContent = r.changed.length + " changed, " + r.unchanged + " unchanged";
      $("changes").tBodies[0].replaceChildren(...r.changed.map((c) => el("tr", {},
        el("td", {}, el("a", {href: "/s/" + c.submission}, el("code", {}, c.submission))),
        el("td", {}, c.user), el("td", {}, verdict(c.before)), el("td", {}, verdict(c.after)))));
      $("changes-empty").textContent = "No verdict changed" + (r.pending ? " so far." : ".");
      show($("changes-empty"), r.changed.length === 0);
      return r.pending === 0;
    });
  }

  // ---- the contest's live pages: their live part read again ----

  // The part is replaced only when it changed, and not while one of its
  // fields has the focus (looked at when the new part is in: the fetch
  // takes time, and the user may have begun typing meanwhile). Replacing
  // an unchanged part would take away, between two keystrokes or a
  // choice and its click, the form the user is filling in.
  function livePage(id) {
    return () => {
      const box = $(id);
      const editing = () => box.contains(document.activeElement) && /^(TEXTAREA|INPUT|SELECT)$/.test(document.activeElement.tagName);
      let shown = new DOMParser().parseFromString(box.innerHTML, "text/html").body.innerHTML;
      every(2000, async () => {
        if (editing()) return;
        const r = await fetch(box.dataset.live, {credentials: "same-origin"});
        if (!r.ok) return;
        const doc = new DOMParser().parseFromString(await r.text(), "text/html");
        const html = doc.body.innerHTML;
        if (html === shown || editing()) return;
        shown = html;
        box.replaceChildren(...doc.body.childNodes);
      });
    };
  }

  // ---- statements: their math typeset by KaTeX (vendored, see
  // static/katex/README), between \( \) and \[ \] as the server writes it ----

  function typeset(el) {
    if (!el || !window.renderMathInElement) return;
    window.renderMathInElement(el, {
      delimiters: [{left: "\\[", right: "\\]", display: true}, {left: "\\(", right: "\\)", display: false}],
      throwOnError: false, trust: false,
    });
  }
  // KaTeX's scripts come after this one (its handlers are set before
  // the large script is read): they have run by DOMContentLoaded
  document.addEventListener("DOMContentLoaded", () => document.querySelectorAll(".statement-body .md").forEach(typeset));

  const pages = {list: listPage, submission: submissionPage, submit: submitPage, queue: queuePage, rejudge: rejudgePage,
    scoreboard: livePage("board"), clarifications: livePage("clars"), rejudging: livePage("rejudging")};
  const page = pages[body.dataset.page];
  if (page) page();
})();
