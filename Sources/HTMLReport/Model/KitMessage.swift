import Foundation

/// Splits the text the kit records in an issue (``ContractReport/message(for:)``, an
/// explorer's finding) back into the labelled sections of a report, for pages built from a
/// Swift Testing event stream, where only the text survives.
///
/// Text the kit did not write (a team's own `#expect`) becomes one section, unchanged.
package enum KitMessage {
    /// The labels the kit writes at the start of an indented line.
    private static let labels: [(prefix: String, title: String, style: ReportSection.Style)] = [
        ("Rule: ", "Rule", .text),
        ("Subject: ", "Subject", .text),
        ("Expected ", "Expected", .lines),
        ("Actual ", "Actual", .lines),
        ("Difference (- expected, + actual):", "Difference (- expected, + actual)", .lines),
        ("Timeline (up to the failing step):", "Timeline (up to the failing step)", .lines),
        ("Hint: ", "Hint", .text),
    ]

    private static let regressionMarker = "Regression test (paste into a test target):"

    /// The first line of `text`: the contract's title and the summary.
    package static func headline(of text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The subject named on a `  Subject: X` line, if any.
    package static func subject(in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("  Subject: ") {
            return String(line.dropFirst("  Subject: ".count))
        }
        return nil
    }

    /// `text` as sections: the first line as `Finding`, then one section per label the kit
    /// writes (`Rule`, `Expected`, `Actual`, `Difference`, `Timeline`, `Hint`), and a pasted
    /// regression test as code.
    /// - Parameter text: An issue's comment.
    package static func sections(of text: String) -> [ReportSection] {
        var body = text
        var regression: String?
        if let marker = text.range(of: regressionMarker) {
            body = String(text[..<marker.lowerBound])
            regression = String(text[marker.upperBound...]).trimmingLeadingNewlines()
        }
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else {
            return regression.map { [ReportSection("Regression test", $0, style: .code)] } ?? []
        }
        var sections: [(title: String, style: ReportSection.Style, lines: [String])] = [
            ("Finding", .text, [first])
        ]
        var recognised = false
        for line in lines.dropFirst() {
            let isLabelled = line.hasPrefix("  ") && !line.hasPrefix("   ")
            if isLabelled, let label = labels.first(where: { line.dropFirst(2).hasPrefix($0.prefix) }) {
                recognised = true
                let rest = String(line.dropFirst(2 + label.prefix.count))
                sections.append(
                    (label.title, label.style, rest.isEmpty ? [] : [rest.trimmingLeadingSpaces()]))
            } else {
                sections[sections.count - 1].lines.append(
                    recognised ? String(line.dropFirst(min(2, line.prefix { $0 == " " }.count))) : line)
            }
        }
        if !recognised {
            sections = [("Issue", .lines, lines)]
        }
        var result = sections.map { section in
            ReportSection(
                section.title, section.lines.joined(separator: "\n"),
                style: section.lines.count > 1 && section.style == .text ? .lines : section.style)
        }
        if let regression { result.append(ReportSection("Regression test", regression, style: .code)) }
        return result
    }
}

extension String {
    fileprivate func trimmingLeadingNewlines() -> String {
        String(drop { $0 == "\n" })
    }

    fileprivate func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }
}
