// The inventory page: when an action takes away the control that was used (a line
// given away, removed or sold), focus goes to the gear's heading instead of being lost
// to the page; the status region announces what happened.
(function () {
  document.addEventListener("htmx:afterSettle", function () {
    var active = document.activeElement;
    if (active && active !== document.body) return;
    var heading = document.getElementById("inventory-heading");
    if (heading) heading.focus({preventScroll: true});
  });
})();
