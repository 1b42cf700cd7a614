// The inventory page: a line's "More" fold that was open stays open when htmx swaps the
// gear in again, and the control that was used keeps the focus (htmx gives it back by id,
// but not to a control inside a fold that is closed again). When an action takes away
// the control that was used (a line given away, removed or sold), focus goes to the
// gear's heading instead of being lost to the page; the status region announces what
// happened.
(function () {
  var openFolds = [];
  var focusedId = null;

  document.addEventListener("htmx:beforeSwap", function () {
    openFolds = Array.prototype.map.call(
      document.querySelectorAll("details.inv-more[open][id]"),
      function (fold) { return fold.id; });
    var active = document.activeElement;
    focusedId = active && active.id ? active.id : null;
  });

  document.addEventListener("htmx:afterSwap", function () {
    openFolds.forEach(function (id) {
      var fold = document.getElementById(id);
      if (fold) fold.open = true;
    });
    var active = document.activeElement;
    if (focusedId && (!active || active === document.body)) {
      var control = document.getElementById(focusedId);
      if (control) control.focus({preventScroll: true});
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    var active = document.activeElement;
    if (active && active !== document.body) return;
    var heading = document.getElementById("inventory-heading");
    if (heading) heading.focus({preventScroll: true});
  });
})();
