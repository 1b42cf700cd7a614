/* Copy buttons: <button data-copy="input-id" hidden>. Without JavaScript the button
   stays hidden and the link stays a selectable read-only field. */
(function () {
  "use strict";

  function copied(button, text) {
    const label = button.dataset.label || button.textContent;
    button.dataset.label = label;
    button.textContent = text;
    window.setTimeout(function () { button.textContent = label; }, 2000);
  }

  function copy(button) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    field.focus();
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { copied(button, "Copied"); },
        function () { copied(button, "Press Ctrl+C"); });
      return;
    }
    let done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    copied(button, done ? "Copied" : "Press Ctrl+C");
  }

  function setUp(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      if (button.dataset.copyReady) return;
      button.dataset.copyReady = "1";
      button.addEventListener("click", function () { copy(button); });
    });
    root.querySelectorAll("input[data-copyable]").forEach(function (field) {
      field.addEventListener("focus", function () { field.select(); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
})();
