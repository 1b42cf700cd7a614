// The Checks page: the Difficulty list and "Other DF" always agree. Typing a DF in
// "Other DF" switches the list to "Another DF"; choosing a DF from the list empties
// "Other DF" (a typed DF would otherwise win over it). Without JavaScript the server
// shows the list as "Another DF" whenever one is typed, and the odds name the DF used.
(function () {
  var OTHER = "other";
  function parts(el) {
    var form = el && el.closest && el.closest("#check-form");
    if (!form) return null;
    return {list: form.querySelector("[name=difficulty]"),
            typed: form.querySelector("[name=df_other]")};
  }
  // Capture phase: this runs before htmx reads the form for the odds request.
  function sync(e) {
    var p = parts(e.target);
    if (!p || !p.list || !p.typed) return;
    if (e.target === p.typed && p.typed.value.trim() !== "") {
      p.list.value = OTHER;
    } else if (e.target === p.list && p.list.value !== OTHER) {
      p.typed.value = "";
    }
  }
  document.addEventListener("input", sync, true);
  document.addEventListener("change", sync, true);
})();
