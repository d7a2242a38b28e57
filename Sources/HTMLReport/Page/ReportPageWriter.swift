import Foundation

/// Writes a ``ReportDocument`` as one self-contained HTML page: the matrix as a static table
/// (readable without script and without colour: every cell shows a symbol and a word), filters
/// by family, kind, level and outcome, and a details panel that opens a cell's full report.
///
/// The page loads nothing: its style and script are inline, it names no font, and every text
/// from a report is escaped with ``HTMLEscaping``.
///
/// ```swift
/// let html = ReportPageWriter().page(for: document)
/// try ReportPageWriter().write(document, to: URL(fileURLWithPath: "m.html"))
/// ```
package struct ReportPageWriter: Sendable {
    /// Creates a writer.
    package init() {}

    /// The page as a string.
    /// - Parameter document: What to show.
    /// - Returns: The whole HTML page.
    package func page(for document: ReportDocument) -> String {
        var html: [String] = []
        let title = HTMLEscaping.text(document.title)
        html.append("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">")
        html.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.append("<meta name=\"generator\" content=\"swift-conformance-kit\">")
        html.append("<title>\(title)</title>\n<style>\(ReportPageStyle.css)</style>\n</head>\n<body>")
        html.append(header(for: document))
        html.append(filters(for: document))
        var columnIndex: [String: Int] = [:]
        var columns: [ReportColumn] = []
        var cellData: [String] = []
        var strings = StringTable()
        for group in document.groups {
            html.append(
                table(
                    for: group, columnIndex: &columnIndex, columns: &columns, cellData: &cellData,
                    strings: &strings))
        }
        html.append(legend())
        html.append(
            "<aside id=\"details\" hidden aria-live=\"polite\"><button type=\"button\" id=\"close\" "
                + "aria-label=\"Close the details\">✕ close</button><div id=\"detail-body\"></div></aside>")
        html.append("<pre id=\"selfcheck\" hidden></pre>")
        let columnData = columns.map { column in
            "["
                + [column.id, column.title, column.tier, column.rule].map(HTMLEscaping.scriptJSON).joined(
                    separator: ",") + "]"
        }
        // The details are JSON the browser does not run: parsed on the first click, so a large
        // page opens as fast as its table. Each distinct text is written once (hints, timelines
        // and transcripts repeat across implementations); cells refer to it by number.
        html.append(
            "<script id=\"report-data\" type=\"application/json\">{\"columns\": ["
                + columnData.joined(separator: ",\n")
                + "],\n\"strings\": [" + strings.values.map(HTMLEscaping.scriptJSON).joined(separator: ",\n")
                + "],\n\"cells\": [" + cellData.joined(separator: ",\n") + "]}</script>")
        html.append("<script>\n" + ReportPageScript.source + "\n</script>")
        html.append("</body>\n</html>\n")
        return html.joined(separator: "\n")
    }

    /// Writes the page to `url` in one step (a temporary file moved into place), so a reader
    /// never finds half a page.
    /// - Parameters:
    ///   - document: What to show.
    ///   - url: Where to write.
    /// - Throws: The file system's error.
    package func write(_ document: ReportDocument, to url: URL) throws {
        try Data(page(for: document).utf8).write(to: url, options: .atomic)
    }

    private func header(for document: ReportDocument) -> String {
        let cells = document.cells.count
        let rows = document.groups.reduce(0) { $0 + $1.rows.count }
        var parts = ["<header>", "<h1>\(HTMLEscaping.text(document.title))</h1>"]
        parts.append("<p class=\"source\">\(HTMLEscaping.text(document.source))</p>")
        let totals = document.totals.map { total in
            "<span class=\"total \(total.verdict.styleClass)\"><b>\(HTMLEscaping.text(total.verdict.symbol)) "
                + "\(total.count)</b> \(HTMLEscaping.text(total.verdict.label))</span>"
        }
        let time = document.runSeconds.map { " · run time " + String(format: "%.2f s", $0) } ?? ""
        parts.append(
            "<p id=\"totals\" class=\"totals\"><span class=\"count\">\(rows) \(HTMLEscaping.text(document.rowNoun)), \(cells) cells\(time)</span> "
                + totals.joined(separator: " ") + "</p>")
        if !document.notes.isEmpty {
            parts.append(
                "<ul class=\"notes\">" + document.notes.map { "<li>\(HTMLEscaping.text($0))</li>" }.joined()
                    + "</ul>")
        }
        parts.append("</header>")
        return parts.joined(separator: "\n")
    }

    private func filters(for document: ReportDocument) -> String {
        let rows = document.groups.flatMap(\.rows)
        func options(_ values: [String]) -> String {
            var seen: Set<String> = []
            return values.filter { !$0.isEmpty && seen.insert($0).inserted }.map {
                "<option value=\"\(HTMLEscaping.text($0))\">\(HTMLEscaping.text($0))</option>"
            }.joined()
        }
        let outcomes = document.totals.map { total in
            "<option value=\"\(HTMLEscaping.text(total.verdict.word))\">\(HTMLEscaping.text(total.verdict.symbol)) "
                + "\(HTMLEscaping.text(total.verdict.label)) (\(total.count))</option>"
        }.joined()
        return """
            <form id="filters" class="filters" onsubmit="return false">
            <label>family <select id="f-family"><option value="">all</option>\(options(document.groups.map(\.family)))</select></label>
            <label>kind <select id="f-kind"><option value="">all</option>\(options(rows.map(\.kind)))</select></label>
            <label>level <select id="f-level"><option value="">all</option>\(options(rows.map(\.level)))</select></label>
            <label>outcome <select id="f-outcome"><option value="">all</option>\(outcomes)</select></label>
            <label>name <input id="f-name" type="search" placeholder="implementation contains…"></label>
            <span id="shown" role="status"></span>
            </form>
            """
    }

    private func table(
        for group: ReportGroup, columnIndex: inout [String: Int], columns: inout [ReportColumn],
        cellData: inout [String], strings: inout StringTable
    ) -> String {
        var html = ["<section class=\"group\" data-family=\"\(HTMLEscaping.text(group.family))\">"]
        // A fixed layout sizes the table from these widths alone, so filtering never re-measures
        // every cell (the 60 × 30 page filters in a few milliseconds).
        let width = 300 + 76 + 56 + group.columns.count * 66
        html.append(
            "<h2>\(HTMLEscaping.text(group.family))</h2>\n<div class=\"scroll\"><table class=\"matrix\" style=\"width:\(width)px\">"
        )
        html.append(
            "<colgroup><col style=\"width:300px\"><col style=\"width:76px\"><col style=\"width:56px\">"
                + String(repeating: "<col style=\"width:66px\">", count: group.columns.count) + "</colgroup>")
        var head =
            "<thead><tr><th class=\"name\" scope=\"col\">implementation</th><th scope=\"col\">kind</th><th scope=\"col\">level</th>"
        var indices: [Int] = []
        for column in group.columns {
            let key = "\(group.family)\u{0}\(column.id)"
            let index = columnIndex[key] ?? columns.count
            if columnIndex[key] == nil {
                columnIndex[key] = index
                columns.append(column)
            }
            indices.append(index)
            let tier = column.tier == "recommended" ? " class=\"rec\"" : ""
            head +=
                "<th scope=\"col\"\(tier) title=\"\(HTMLEscaping.text(column.title + (column.tier.isEmpty ? "" : " (\(column.tier))")))\">"
                + HTMLEscaping.text(column.id) + "</th>"
        }
        html.append(head + "</tr></thead>\n<tbody>")
        for row in group.rows {
            let byColumn = Dictionary(
                row.cells.map { ($0.column, $0) }, uniquingKeysWith: { first, _ in first })
            let words = Set(row.cells.map(\.verdict.word)).sorted()
            var line =
                "<tr data-name=\"\(HTMLEscaping.text(row.name.lowercased()))\" data-kind=\"\(HTMLEscaping.text(row.kind))\" "
                + "data-level=\"\(HTMLEscaping.text(row.level))\" data-v=\" \(HTMLEscaping.text(words.joined(separator: " "))) \">"
            line += "<th scope=\"row\" class=\"name\">\(HTMLEscaping.text(row.name))"
            if !row.note.isEmpty { line += "<small>\(HTMLEscaping.text(row.note))</small>" }
            line +=
                "</th><td class=\"k\">\(HTMLEscaping.text(row.kind))</td><td class=\"k\">\(HTMLEscaping.text(row.level))</td>"
            for (column, index) in zip(group.columns, indices) {
                guard let cell = byColumn[column.id] else {
                    line += "<td class=\"c none\"></td>"
                    continue
                }
                let number = cellData.count
                cellData.append(data(for: cell, row: row, columnIndex: index, strings: &strings))
                line +=
                    "<td class=\"c \(cell.verdict.styleClass)\" data-v=\"\(HTMLEscaping.text(cell.verdict.word))\" data-i=\"\(number)\" "
                    + "tabindex=\"0\" title=\"\(HTMLEscaping.text(column.id + ": " + cell.verdict.label))\">"
                    + "\(HTMLEscaping.text(cell.verdict.symbol)) \(HTMLEscaping.text(cell.verdict.shortLabel))</td>"
            }
            html.append(line + "</tr>")
        }
        html.append("</tbody></table></div></section>")
        return html.joined(separator: "\n")
    }

    /// One cell's details as a JSON array of string numbers: row, column index, verdict word,
    /// symbol, label, expectation, headline, then title, body and style of each section.
    private func data(for cell: ReportCell, row: ReportRow, columnIndex: Int, strings: inout StringTable)
        -> String
    {
        let sections = cell.sections.map { section in
            "[\(strings.number(section.title)),\(strings.number(section.body)),\(strings.number(section.style.rawValue))]"
        }
        let fields = [
            row.name, cell.verdict.word, cell.verdict.symbol, cell.verdict.label, cell.expected ?? "",
            cell.headline,
        ]
        .map { String(strings.number($0)) }
        return "[" + fields[0] + ",\(columnIndex)," + fields.dropFirst().joined(separator: ",") + ",["
            + sections.joined(separator: ",") + "]]"
    }

    private func legend() -> String {
        let items = ReportVerdict.known.map { verdict in
            "<li><span class=\"c \(verdict.styleClass)\">\(HTMLEscaping.text(verdict.symbol)) \(HTMLEscaping.text(verdict.shortLabel))</span> "
                + HTMLEscaping.text(verdict.label) + "</li>"
        }
        return "<footer><h2>Legend</h2><ul class=\"legend\">" + items.joined()
            + "<li><span class=\"c v-other\">? word</span> an outcome this page does not know, shown by its word</li></ul>"
            + "<p>Click a cell (or focus it and press Enter) for its full report. Column headers in italics are recommended rules.</p></footer>"
    }
}
