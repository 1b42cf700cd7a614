// Derived stats explain themselves (popover API): a tap, a click or the keyboard
// opens the explanation and keeps it open; a mouse hover shows it in passing.
(function () {
  function target(el) {
    var id = el && el.getAttribute("popovertarget");
    return id ? document.getElementById(id) : null;
  }
  function statButton(e) {
    return e.target.closest && e.target.closest(".stat-value[popovertarget]");
  }
  function place(button, pop) {
    var r = button.getBoundingClientRect();
    pop.style.left = Math.max(8, Math.min(r.left, window.innerWidth - pop.offsetWidth - 8)) + "px";
    var below = r.bottom + 6;
    var above = r.top - pop.offsetHeight - 6;
    pop.style.top = (below + pop.offsetHeight > window.innerHeight && above > 0 ? above : below) + "px";
  }
  // Only a real mouse hovers: a touch also fires mouseover just before its click,
  // which used to open the popover and let the click close it again at once.
  document.addEventListener("pointerover", function (e) {
    if (e.pointerType !== "mouse") return;
    var button = statButton(e);
    var pop = target(button);
    if (pop && pop.showPopover && !pop.matches(":popover-open")) {
      pop.showPopover(); place(button, pop); button.dataset.hoverOpen = "1";
    }
  });
  // Leaving the number closes a hover-opened explanation a moment later, unless the
  // pointer has gone on into the explanation (to follow its "SRD:" link): it closes when
  // the pointer leaves both.
  var hideTimer = null;
  function hideLater(button, pop) {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(function () {
      if (!button.dataset.hoverOpen || pop.matches(":hover") || button.matches(":hover")) return;
      if (pop.hidePopover && pop.matches(":popover-open")) pop.hidePopover();
      delete button.dataset.hoverOpen;
    }, 300);
  }
  document.addEventListener("pointerout", function (e) {
    if (e.pointerType !== "mouse") return;
    var button = statButton(e);
    var pop = button ? target(button) : e.target.closest && e.target.closest(".stat-why:popover-open");
    if (!pop || (e.relatedTarget && pop.contains(e.relatedTarget))) return;
    button = button || document.querySelector('[popovertarget="' + pop.id + '"]');
    if (button && button.dataset.hoverOpen) hideLater(button, pop);
  });
  // A click on a number that hovering already opened pins it open instead of closing it.
  document.addEventListener("click", function (e) {
    var button = statButton(e);
    if (button && button.dataset.hoverOpen) {
      e.preventDefault();
      delete button.dataset.hoverOpen;
    }
  }, true);
  document.addEventListener("toggle", function (e) {
    if (e.newState === "open") {
      var button = document.querySelector('[popovertarget="' + e.target.id + '"]');
      if (button) place(button, e.target);
    }
  }, true);
  // The live preview replaces the stats panel. When no number changed (a blur after
  // typing, a select's input and change events) leave the panel alone, so a tap on it is
  // not lost; the error slots still update out of band. When numbers did change, an
  // explanation the player opened stays open, now explaining the new number.
  function norm(text) { return text.replace(/\s+/g, " ").trim(); }
  var reopen = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var panel = document.getElementById("stats-panel");
    if (panel && e.detail.target === panel && typeof e.detail.serverResponse === "string") {
      var html = new DOMParser().parseFromString(e.detail.serverResponse, "text/html");
      var incoming = html.getElementById("stats-panel");
      if (incoming && norm(incoming.textContent) === norm(panel.textContent)) {
        e.detail.swapOverride = "none";
        return;
      }
    }
    var open = document.querySelector(".stat-why:popover-open");
    var button = open && document.querySelector('[popovertarget="' + open.id + '"]');
    reopen = open ? {id: open.id, hover: !!(button && button.dataset.hoverOpen)} : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var was = reopen;
    var pop = was && document.getElementById(was.id);
    reopen = null;
    if (!pop) return;
    if (pop.showPopover && !pop.matches(":popover-open")) pop.showPopover();
    var button = document.querySelector('[popovertarget="' + pop.id + '"]');
    if (!button) return;
    if (was.hover) button.dataset.hoverOpen = "1"; else delete button.dataset.hoverOpen;
    place(button, pop);
  });
})();

// Live validation: the preview fills the #errors-<field> slots out of band. Leave a slot
// alone when its message has not changed (its live region would announce it again on
// every keystroke), and mark the field invalid or valid again for screen readers and
// for the eye, as a full page render does.
(function () {
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var slot = e.detail.target;
    if (slot && slot.id && slot.id.indexOf("errors-") === 0 &&
        slot.textContent.trim() === e.detail.fragment.textContent.trim()) {
      e.detail.shouldSwap = false;
    }
  });

  function describedBy(control, id, on) {
    var ids = (control.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (x) {
      return x && x !== id && (on || x !== control.id + "_error");
    });
    if (on && ids.indexOf(control.id + "_error") < 0) ids.push(id);
    if (ids.length) control.setAttribute("aria-describedby", ids.join(" "));
    else control.removeAttribute("aria-describedby");
  }

  function syncErrors() {
    var builder = document.getElementById("builder");
    if (!builder) return;
    builder.querySelectorAll('.field-errors[id^="errors-"]').forEach(function (slot) {
      var name = slot.id.slice("errors-".length);
      var invalid = slot.textContent.trim() !== "";
      var wrapper = slot.closest(".field");
      if (wrapper) wrapper.classList.toggle("has-error", invalid);
      builder.querySelectorAll('[name="' + name + '"]').forEach(function (control) {
        if (control.type === "hidden") return;
        if (invalid) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
        describedBy(control, slot.id, invalid);
      });
    });
  }
  document.addEventListener("htmx:afterSettle", syncErrors);
})();
