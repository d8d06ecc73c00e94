// elo serve's calculator: with JavaScript on, the answer follows the form as you type
// (the server renders it: GET /calc?...&partial=1), and the address keeps the question.
// Without JavaScript the form is a plain GET form: the same page, one answer per submit.
"use strict";
(function () {
  const form = document.getElementById("calc");
  const answer = document.getElementById("answer");
  if (!form || !answer || !window.fetch) {
    return;
  }
  document.documentElement.classList.add("live");
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

  async function update() {
    const params = query();
    history.replaceState(null, "", "/calc?" + params.toString());
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

  form.addEventListener("input", later);
  form.addEventListener("change", later);
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    update();
  });
})();
