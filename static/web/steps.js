// Step through a history or a reveal with the arrow keys (a file: the pages' Content-Security-Policy allows no inline script).
document.addEventListener("keydown", function (event) {
  if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
  var link = event.key === "ArrowLeft" ? document.getElementById("prev") : event.key === "ArrowRight" ? document.getElementById("next") : null;
  if (link) { event.preventDefault(); window.location.href = link.href; }
});
