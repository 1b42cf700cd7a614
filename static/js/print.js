// The print view's controls: a Print button (shown only with JavaScript) and the paper
// select, which reloads the view for the chosen paper. Without JavaScript the form's
// own "Change paper" button does the same.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.requestSubmit());
  }
});
