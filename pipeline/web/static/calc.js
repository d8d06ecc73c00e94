// elo serve's calculator: with JavaScript on, the answer follows the form as you type
// (the server renders it: GET /calc?...&partial=1), and the address keeps the question.
// The games can be edited as rows (added and removed) or pasted as `1800:1` lines: the
// rows and the text area show the same games. The player's data is kept only in this
// browser (localStorage), restored on the next visit, until "forget".
// Without JavaScript the form is a plain GET form: the same page, one answer per submit.
"use strict";
(function () {
  const form = document.getElementById("calc");
  const answer = document.getElementById("answer");
  if (!form || !answer || !window.fetch) {
    return;
  }
  document.documentElement.classList.add("live");
  const KEY = "elo-calc";
  const KEPT = ["rating", "birth-year", "ever-2400", "games", "game", "list", "k", "method", "expectation"];
  const text = form.elements.game;
  const body = document.querySelector("#rows tbody");
  const template = document.getElementById("row");
  let timer = null;
  let asked = 0;

  function query() {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (String(value).trim() !== "") {
        params.append(name, String(value));
      }
    }
    return params;
  }

  function store() {
    const saved = {};
    for (const name of KEPT) {
      const field = form.elements[name];
      saved[name] = field.type === "checkbox" ? field.checked : field.value;
    }
    try {
      localStorage.setItem(KEY, JSON.stringify(saved));
      document.getElementById("kept").hidden = false;
    } catch (e) {
      // storage off (a private window): the page works without it
    }
  }

  function restore() {
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(KEY) || "null");
    } catch (e) {
      return false;
    }
    if (!saved) {
      return false;
    }
    document.getElementById("kept").hidden = false;
    const params = new URLSearchParams(location.search);
    if (params.get("rating") || params.get("game")) {
      return false; // a shared or bookmarked question wins
    }
    for (const name of KEPT) {
      const field = form.elements[name];
      if (field && name in saved) {
        if (field.type === "checkbox") {
          field.checked = Boolean(saved[name]);
        } else {
          field.value = saved[name];
        }
      }
    }
    return true;
  }

  function rowsFromText() {
    body.replaceChildren();
    for (const token of text.value.split(/[\s;]+/).filter(Boolean)) {
      const [opp, score] = token.split(":");
      addRow(opp || "", score || "1");
    }
    if (!body.rows.length) {
      addRow("", "1");
    }
  }

  function textFromRows() {
    const games = [];
    for (const row of body.rows) {
      const opp = row.querySelector(".opp").value.trim();
      if (opp) {
        games.push(opp + ":" + row.querySelector(".score").value);
      }
    }
    text.value = games.join("\n");
  }

  function number() {
    [...body.rows].forEach((row, i) => (row.querySelector(".n").textContent = String(i + 1)));
  }

  function addRow(opp, score) {
    const row = template.content.firstElementChild.cloneNode(true);
    row.querySelector(".opp").value = opp;
    const select = row.querySelector(".score");
    const known = { "0.5": "½", "0,5": "½", ".5": "½" };
    select.value = known[score] || score;
    if (!select.value) {
      select.value = "1";
    }
    row.querySelector(".remove").addEventListener("click", function () {
      row.remove();
      number();
      textFromRows();
      later();
    });
    body.append(row);
    number();
    return row;
  }

  async function update() {
    const params = query();
    history.replaceState(null, "", "/calc?" + params.toString());
    for (const link of document.querySelectorAll("nav.langs a[hreflang]")) {
      params.set("lang", link.getAttribute("hreflang"));
      link.href = "/calc?" + params.toString(); // a language switch keeps the question
    }
    params.set("lang", form.elements.lang.value);
    store();
    if (!params.get("rating") || !params.get("game")) {
      return;
    }
    params.set("partial", "1");
    const mine = ++asked;
    const response = await fetch("/calc?" + params.toString(), { headers: { Accept: "text/html" } });
    const html = await response.text();
    if (mine === asked) {
      answer.innerHTML = html;
    }
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(update, 200);
  }

  document.getElementById("rows").hidden = false;
  document.getElementById("add-row").addEventListener("click", function () {
    addRow("", "1").querySelector(".opp").focus();
  });
  document.getElementById("forget").addEventListener("click", function () {
    localStorage.removeItem(KEY);
    location.href = "/calc?lang=" + form.elements.lang.value;
  });
  form.addEventListener("input", function (event) {
    if (event.target === text) {
      rowsFromText();
    } else if (body.contains(event.target)) {
      textFromRows();
    }
    later();
  });
  form.addEventListener("change", function (event) {
    if (body.contains(event.target)) {
      textFromRows();
    }
    later();
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    update();
  });
  const restored = restore();
  rowsFromText();
  if (restored) {
    update();
  }
})();
