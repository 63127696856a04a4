// Filters the findings of a page in place by severity, kind, rule and owner. An enhancement:
// without it the page still lists every finding by severity and file, and a long list has
// static filter pages beside it. Same-origin only (the dashboard's CSP allows 'self').
(function () {
  "use strict";
  var items = Array.prototype.slice.call(document.querySelectorAll("li.finding[data-rule]"));
  var first = document.querySelector(".finding-section");
  if (items.length < 2 || !first) return;
  var dimensions = [["severity", "Severity"], ["kind", "Kind"], ["rule", "Rule"], ["owner", "Owner"]];
  var form = document.createElement("form");
  form.className = "finding-filter-form";
  form.setAttribute("aria-label", "Filter the findings on this page");
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  var selects = [];
  dimensions.forEach(function (dimension) {
    var counts = {};
    items.forEach(function (item) {
      var value = item.getAttribute("data-" + dimension[0]);
      if (value) counts[value] = (counts[value] || 0) + 1;
    });
    var values = Object.keys(counts).sort();
    if (values.length < 2) return;
    var label = document.createElement("label");
    label.appendChild(document.createTextNode(dimension[1] + " "));
    var select = document.createElement("select");
    select.name = dimension[0];
    var all = document.createElement("option");
    all.value = "";
    all.textContent = "All (" + items.length + ")";
    select.appendChild(all);
    values.forEach(function (value) {
      var option = document.createElement("option");
      option.value = value;
      option.textContent = value + " (" + counts[value] + ")";
      select.appendChild(option);
    });
    label.appendChild(select);
    form.appendChild(label);
    selects.push(select);
  });
  if (selects.length === 0) return;
  var status = document.createElement("p");
  status.className = "filter-status";
  status.setAttribute("role", "status");
  form.appendChild(status);
  function apply() {
    var shown = 0;
    items.forEach(function (item) {
      var keep = selects.every(function (select) { return !select.value || item.getAttribute("data-" + select.name) === select.value; });
      item.hidden = !keep;
      if (keep) shown += 1;
    });
    // A file or a severity with nothing left shown is hidden with its heading.
    Array.prototype.forEach.call(document.querySelectorAll(".file-group, .finding-section"), function (group) {
      group.hidden = !group.querySelector("li.finding:not([hidden])");
    });
    var filtering = selects.some(function (select) { return select.value; });
    status.textContent = filtering ? shown + " of " + items.length + " findings on this page shown" : "";
  }
  selects.forEach(function (select) { select.addEventListener("change", apply); });
  first.parentNode.insertBefore(form, first);
})();
