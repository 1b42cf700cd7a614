// The print view's controls: a Print button (shown only with JavaScript) and the paper
// select, which reloads the view for the chosen paper. Without JavaScript the form's
// own "Change paper" button does the same.
//
// On a screen narrower than the sheet (a phone), the sheet is scaled down to fit for
// viewing: print.css zooms .sheet-page by --sheet-zoom on screen only, so printing is
// unchanged. Without JavaScript the sheet scrolls sideways inside its own box instead.
function fitSheetToScreen() {
  const root = document.documentElement;
  const page = document.querySelector(".sheet-page");
  if (!page) return;
  root.style.removeProperty("--sheet-zoom");
  const margin = 16; // px kept free beside the sheet
  const zoom = Math.min(1, (root.clientWidth - margin) / page.offsetWidth);
  if (zoom < 1) root.style.setProperty("--sheet-zoom", zoom.toFixed(4));
}

fitSheetToScreen(); // a deferred script: the sheet is parsed already
window.addEventListener("resize", fitSheetToScreen);
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.requestSubmit());
  }
});
