(function () {
  "use strict";
  var button = document.getElementById("print");
  if (button) {
    button.addEventListener("click", function () { window.print(); });
  }
  if (new URLSearchParams(window.location.search).get("print") === "1") {
    window.setTimeout(function () { window.print(); }, 500);
  }
})();
