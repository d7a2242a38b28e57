/// The page's inline script: filters, the details panel, the copy button, and a self-check
/// that `Scripts/check-html-report.sh` runs in headless Chromium (`#selfcheck` in the URL).
enum ReportPageScript {
    static let source = #"""
        (function () {
          "use strict";
          var scriptStart = performance.now();
          var groups = Array.prototype.slice.call(document.querySelectorAll("section.group"));
          var rows = Array.prototype.slice.call(document.querySelectorAll("table.matrix tbody tr"));
          var cells = Array.prototype.slice.call(document.querySelectorAll("td.c[data-v]"));
          var dimmed = "";
          var shown = document.getElementById("shown");
          var panel = document.getElementById("details");
          var body = document.getElementById("detail-body");
          function value(id) { return document.getElementById(id).value; }
          function apply() {
            var family = value("f-family"), kind = value("f-kind"), level = value("f-level");
            var outcome = value("f-outcome"), name = value("f-name").toLowerCase();
            var visible = 0;
            for (var g = 0; g < groups.length; g++) {
              groups[g].hidden = family !== "" && groups[g].getAttribute("data-family") !== family;
            }
            for (var i = 0; i < rows.length; i++) {
              var row = rows[i];
              var show = !row.closest("section").hidden
                && (kind === "" || row.getAttribute("data-kind") === kind)
                && (level === "" || row.getAttribute("data-level") === level)
                && (outcome === "" || row.getAttribute("data-v").indexOf(" " + outcome + " ") >= 0)
                && (name === "" || row.getAttribute("data-name").indexOf(name) >= 0);
              row.hidden = !show;
              if (show) visible++;
            }
            if (outcome !== dimmed) {
              for (var c = 0; c < cells.length; c++) {
                var off = outcome !== "" && cells[c].getAttribute("data-v") !== outcome;
                if (off !== cells[c].classList.contains("dim")) cells[c].classList.toggle("dim", off);
              }
              dimmed = outcome;
            }
            shown.textContent = visible + " of " + rows.length + " implementations shown";
            return visible;
          }
          ["f-family", "f-kind", "f-level", "f-outcome"].forEach(function (id) {
            document.getElementById(id).addEventListener("change", apply);
          });
          document.getElementById("f-name").addEventListener("input", apply);
          function text(tag, content, cls) {
            var node = document.createElement(tag);
            node.textContent = content;
            if (cls) node.className = cls;
            return node;
          }
          function copy(button, content) {
            function done() { button.textContent = "✓ copied"; }
            if (navigator.clipboard && navigator.clipboard.writeText) {
              navigator.clipboard.writeText(content).then(done, function () { fallback(); });
            } else { fallback(); }
            function fallback() {
              var area = document.createElement("textarea");
              area.value = content; document.body.appendChild(area); area.select();
              try { document.execCommand("copy"); done(); } catch (e) { button.textContent = "select and copy by hand"; }
              area.remove();
            }
          }
          var report = null;
          function resolve(raw) {
            var S = report.strings, cell = [S[raw[0]], raw[1]];
            for (var f = 2; f < 7; f++) cell.push(S[raw[f]]);
            cell.push(raw[7].map(function (s) { return [S[s[0]], S[s[1]], S[s[2]]]; }));
            return cell;
          }
          function open(index) {
            report = report || JSON.parse(document.getElementById("report-data").textContent);
            var cell = resolve(report.cells[index]), column = report.columns[cell[1]];
            body.textContent = "";
            body.appendChild(text("h2", cell[0] + " · " + column[1]));
            var verdict = text("p", cell[3] + " " + cell[4] + (cell[5] ? " (expected: " + cell[5] + ")" : ""), "verdict");
            body.appendChild(verdict);
            var sections = cell[7], hasRule = false, repeated = false;
            for (var s = 0; s < sections.length; s++) {
              if (sections[s][0] === "Rule") hasRule = true;
              if (sections[s][1] === cell[6]) repeated = true;
            }
            if (cell[6] && !repeated) body.appendChild(text("p", cell[6]));
            if (!hasRule && column[3]) {
              body.appendChild(text("h3", "Rule" + (column[2] ? " (" + column[2] + ")" : "")));
              body.appendChild(text("p", column[3]));
            }
            sections.forEach(function (section) {
              body.appendChild(text("h3", section[0]));
              if (section[2] === "text") { body.appendChild(text("p", section[1])); return; }
              var pre = document.createElement("pre");
              if (section[2] === "lines") {
                section[1].split("\n").forEach(function (line, n) {
                  if (n > 0) pre.appendChild(document.createTextNode("\n"));
                  if (/^\s*▶/.test(line)) pre.appendChild(text("span", line, "fail"));
                  else pre.appendChild(document.createTextNode(line));
                });
              } else {
                pre.textContent = section[1];
                var button = text("button", "Copy", "copy");
                button.type = "button";
                button.addEventListener("click", function () { copy(button, section[1]); });
                body.appendChild(button);
              }
              body.appendChild(pre);
            });
            panel.hidden = false;
            document.getElementById("close").focus();
          }
          function close() { panel.hidden = true; }
          document.addEventListener("click", function (event) {
            var cell = event.target.closest ? event.target.closest("td.c[data-i]") : null;
            if (cell) open(+cell.getAttribute("data-i"));
          });
          document.addEventListener("keydown", function (event) {
            if (event.key === "Escape") close();
            if (event.key === "Enter" && event.target.matches && event.target.matches("td.c[data-i]")) {
              open(+event.target.getAttribute("data-i"));
            }
          });
          document.getElementById("close").addEventListener("click", close);
          apply();
          // `#cell=12` opens that cell's details: a link to one finding.
          var linked = /^#cell=(\d+)$/.exec(location.hash);
          if (linked && document.querySelector("td.c[data-i=\"" + linked[1] + "\"]")) open(+linked[1]);
          if (location.hash === "#selfcheck") {
            void document.body.offsetHeight;
            var opened = performance.now();
            var start = performance.now(), filters = [];
            function measure(id, v) {
              var t = performance.now();
              document.getElementById(id).value = v;
              var n = apply();
              void document.body.offsetHeight;
              filters.push({filter: id + "=" + v, rows: n, ms: +(performance.now() - t).toFixed(2)});
            }
            var words = Array.prototype.map.call(document.querySelectorAll("#f-outcome option"), function (o) { return o.value; });
            measure("f-outcome", words[words.length - 1]);
            measure("f-outcome", "");
            var kinds = document.querySelectorAll("#f-kind option");
            measure("f-kind", kinds[kinds.length - 1].value);
            measure("f-kind", "");
            measure("f-name", "a");
            measure("f-name", "");
            var families = document.querySelectorAll("#f-family option");
            measure("f-family", families[families.length - 1].value);
            measure("f-family", "");
            var filtered = performance.now() - start;
            var t = performance.now();
            var first = document.querySelector("td.c[data-v=failed], td.c[data-v=xfail], td.c[data-i]");
            if (first) open(+first.getAttribute("data-i"));
            void document.body.offsetHeight;
            var detailMs = performance.now() - t;
            var figures = {
              rows: rows.length, cells: document.querySelectorAll("td.c[data-i]").length,
              openMs: +opened.toFixed(1), scriptStartMs: +scriptStart.toFixed(1), filterMs: +filtered.toFixed(1), detailMs: +detailMs.toFixed(1),
              detailTitle: first ? body.querySelector("h2").textContent : "", filters: filters
            };
            var out = document.getElementById("selfcheck");
            out.textContent = "SELFCHECK " + JSON.stringify(figures);
            out.hidden = false;
          }
        })();
        """#
}
