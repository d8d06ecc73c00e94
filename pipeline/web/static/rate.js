// elo serve's rating pages. The upload form: the files are sent with a progress bar, then
// "reading and rating" until the result page replaces this one. The result page: the
// players' table sorts by a click on a column's title and filters as you type. Without
// JavaScript the form posts as usual and the table is a plain table.
"use strict";
(function () {
  const form = document.getElementById("rate");
  const progress = document.getElementById("progress");
  if (form && progress && window.FormData) {
    let action = "rate";
    for (const button of form.querySelectorAll("button[name=action]")) {
      button.addEventListener("click", () => (action = button.value));
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const data = new FormData(form);
      data.set("action", action);
      const bar = progress.querySelector("progress");
      const label = progress.querySelector("span");
      progress.hidden = false;
      form.querySelectorAll("button").forEach((b) => (b.disabled = true));
      const request = new XMLHttpRequest();
      request.open("POST", form.getAttribute("action")); // form.action is the buttons named "action"
      request.upload.addEventListener("progress", function (e) {
        if (e.lengthComputable) {
          const percent = Math.round((100 * e.loaded) / e.total);
          bar.value = percent;
          label.textContent = label.dataset.sending.replace("{percent}", percent + " %");
        }
      });
      request.upload.addEventListener("load", function () {
        bar.removeAttribute("value"); // the rating's time is not known: an indeterminate bar
        label.textContent = label.dataset.rating;
      });
      request.addEventListener("load", function () {
        document.open();
        document.write(request.responseText);
        document.close();
      });
      request.send(data);
    });
  }

  const table = document.querySelector("table.ratings");
  if (!table) {
    return;
  }
  const body = table.tBodies[0];
  const rows = [...body.rows];
  const heads = [...table.tHead.rows[0].cells];
  let sorted = -1;
  let down = false;

  function value(row, i, numeric) {
    const cell = row.cells[i];
    const raw = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
    if (!numeric) {
      return raw.toLowerCase();
    }
    return raw === "" ? null : Number(raw);
  }

  heads.forEach(function (head, i) {
    head.classList.add("sortable");
    head.tabIndex = 0;
    function sort() {
      const numeric = head.dataset.type === "number";
      down = sorted === i ? !down : numeric; // numbers: highest first
      sorted = i;
      const order = rows.slice().sort(function (a, b) {
        const x = value(a, i, numeric);
        const y = value(b, i, numeric);
        if (x === y) return 0;
        if (x === null) return 1; // empty cells last either way
        if (y === null) return -1;
        return (x < y ? -1 : 1) * (down ? -1 : 1);
      });
      body.append(...order);
      heads.forEach((h) => h.removeAttribute("aria-sort"));
      head.setAttribute("aria-sort", down ? "descending" : "ascending");
    }
    head.addEventListener("click", sort);
    head.addEventListener("keydown", (e) => e.key === "Enter" && sort());
  });

  const filter = document.getElementById("filter");
  const shown = document.getElementById("shown");
  if (filter) {
    filter.closest("p").hidden = false;
    filter.addEventListener("input", function () {
      const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      let n = 0;
      for (const row of rows) {
        const text = row.textContent.toLowerCase();
        row.hidden = !words.every((w) => text.includes(w));
        n += row.hidden ? 0 : 1;
      }
      shown.textContent = words.length ? n + " / " + rows.length : "";
    });
  }
})();
