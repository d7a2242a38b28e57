import ConformanceKit
import Foundation

/// A report cell found in an event stream: which contract, which subject, and the cell.
struct ContractCell {
    /// A cell before it is placed under its test.
    struct Found {
        let contract: String
        let name: String
        /// The row the cell names itself (`SeedPager · P4 …`, an attachment's subject).
        let row: String?
        /// The subject its report names, which names the row of every case of the test.
        let subject: String?
        let cell: ReportCell
    }

    let testID: String
    let contract: String
    let name: String
    let row: String?
    let subject: String?
    let cell: ReportCell

    init(testID: String, base: Found) {
        self.testID = testID
        contract = base.contract
        name = base.name
        row = base.row
        subject = base.subject
        cell = base.cell
    }

    /// The cells one test case (or one test that is not parameterized) holds: the case itself
    /// when it is named by a contract, else the skipped contracts it attached reports for.
    static func cells(testCase: String?, result: EventStreamRun.Case) -> [Found] {
        if let testCase, let title = Title(testCase) {
            return [cell(title: title, result: result)]
        }
        // A test not named by a contract (one that loops over contracts): one attachment per
        // skipped contract.
        return result.attachments.compactMap { attachment -> Found? in
            guard attachment.name.hasSuffix(" (not applicable).txt"),
                let id = attachment.name.split(separator: " ").first.map(String.init),
                let contract = ContractCatalog.all.first(where: { $0.id.rawValue == id }),
                attachment.text.hasPrefix(contract.title + " was skipped, not passed")
            else { return nil }
            let name = contract.name
            let subject = String(
                attachment.name.dropFirst(id.count + 1).dropLast(" (not applicable).txt".count))
            let reason = reasonOfSkip(attachment.text)
            return Found(
                contract: id, name: name, row: subject.isEmpty ? nil : subject, subject: nil,
                cell: ReportCell(
                    column: id, verdict: .notApplicable, headline: reason,
                    sections: [
                        ReportSection("Not applicable", reason),
                        ReportSection("Attachment: \(attachment.name)", attachment.text, style: .lines),
                    ]))
        }
    }

    private static func cell(title: Title, result: EventStreamRun.Case) -> Found {
        let errors = result.issues.filter { !$0.isKnown && !$0.isWarning }
        let known = result.issues.filter(\.isKnown)
        let skipReport = result.issues.first { $0.text.contains(" was skipped, not passed") }
        let skipAttachment = result.attachments.first { $0.name.hasSuffix(" (not applicable).txt") }
        let reports = result.attachments.filter { !$0.name.hasSuffix(" (not applicable).txt") }
        let verdict: ReportVerdict
        var headline = ""
        if let error = errors.first {
            let line = KitMessage.headline(of: error.text)
            // The bridge titles a blocked cell with the blocking rule: "Q1 persist before send
            // (blocks Q3 replay after crash): Expected …".
            verdict = line.contains(" (blocks ") || line.contains(": blocked by ") ? .blocked : .failed
            headline = summary(line, title: title)
        } else if let issue = known.first {
            verdict = .expectedFailure
            headline = summary(KitMessage.headline(of: issue.text), title: title)
        } else if let reason = title.notApplicable ?? skipReport.map({ reasonOfSkip($0.text) })
            ?? skipAttachment.map({ reasonOfSkip($0.text) }) ?? result.skipped
        {
            verdict = .notApplicable
            headline = reason
        } else if let warning = result.issues.first(where: \.isWarning) {
            verdict = .warning
            headline = summary(KitMessage.headline(of: warning.text), title: title)
        } else if let report = reports.first {
            // Version 0 drops warning issues; the kit attaches the report of each one.
            verdict = .warning
            let first = KitMessage.headline(of: report.text)
            headline =
                first.range(of: " — ").map { summary(String(first[$0.upperBound...]), title: title) } ?? first
        } else {
            verdict = .passed
        }
        var sections: [ReportSection] = []
        if verdict == .notApplicable { sections.append(ReportSection("Not applicable", headline)) }
        for (number, issue) in result.issues.enumerated() {
            let kind = issue.isKnown ? "known issue (expected)" : issue.isWarning ? "warning" : "error"
            let count = result.issues.count > 1 ? " \(number + 1) of \(result.issues.count)" : ""
            let place = issue.sourceLocation.map { " at \($0)" } ?? ""
            var parsed = KitMessage.sections(of: issue.text)
            let first = parsed.first?.title == "Finding" ? parsed.removeFirst().body : ""
            sections.append(ReportSection("Issue\(count): \(kind)\(place)", first))
            sections += parsed
        }
        for attachment in result.attachments {
            sections.append(ReportSection("Attachment: \(attachment.name)", attachment.text, style: .lines))
        }
        let subject =
            title.subject ?? result.issues.lazy.compactMap { KitMessage.subject(in: $0.text) }.first
            ?? result.attachments.lazy.compactMap { subjectOfAttachment($0, contract: title.contract) }.first
        return Found(
            contract: title.contract, name: title.name, row: title.subject, subject: subject,
            cell: ReportCell(column: title.contract, verdict: verdict, headline: headline, sections: sections)
        )
    }

    /// A test that is not a contract case: its own verdict, every issue and attachment.
    static func otherTestCell(_ result: EventStreamRun.Case) -> ReportCell {
        let errors = result.issues.filter { !$0.isKnown && !$0.isWarning }
        let verdict: ReportVerdict =
            !errors.isEmpty
            ? .failed
            : result.skipped != nil
                ? .notApplicable
                : result.issues.contains(where: \.isKnown)
                    ? .expectedFailure
                    : result.issues.contains(where: \.isWarning) ? .warning : .passed
        var sections: [ReportSection] = []
        if let skipped = result.skipped { sections.append(ReportSection("Skipped", skipped)) }
        for issue in result.issues {
            let kind = issue.isKnown ? "known issue" : issue.isWarning ? "warning" : "error"
            sections.append(
                ReportSection(
                    "Issue: \(kind)" + (issue.sourceLocation.map { " at \($0)" } ?? ""), "", style: .text))
            sections += KitMessage.sections(of: issue.text)
        }
        for attachment in result.attachments {
            sections.append(ReportSection("Attachment: \(attachment.name)", attachment.text, style: .lines))
        }
        let headline =
            (errors.first ?? result.issues.first).map { KitMessage.headline(of: $0.text) } ?? result.skipped
            ?? ""
        return ReportCell(column: "result", verdict: verdict, headline: headline, sections: sections)
    }

    /// `Expected …, but …` from `P4 late stale response: Expected …, but …`.
    private static func summary(_ line: String, title: Title) -> String {
        let prefix = "\(title.contract) \(title.name)"
        guard line.hasPrefix(prefix) else { return line }
        var rest = line.dropFirst(prefix.count)
        if rest.hasPrefix(" — ") { rest = rest.dropFirst(3) }
        if let colon = rest.firstIndex(of: ":"), rest.distance(from: rest.startIndex, to: colon) < 20 {
            rest = rest[rest.index(after: colon)...]
        }
        return String(rest.drop { $0 == " " })
    }

    /// The reason in `… was skipped, not passed: it does not apply to X (reason).`
    private static func reasonOfSkip(_ text: String) -> String {
        guard let applies = text.range(of: "does not apply to "),
            let open = text.range(of: " (", range: applies.upperBound..<text.endIndex)
        else { return KitMessage.headline(of: text) }
        var reason = String(text[open.upperBound...])
        while reason.hasSuffix("\n") || reason.hasSuffix(" ") { reason.removeLast() }
        if reason.hasSuffix(".") { reason.removeLast() }
        if reason.hasSuffix(")") { reason.removeLast() }
        return reason
    }

    /// `X` from an attachment named `P4 X.txt`, or whose text starts with `X — `.
    private static func subjectOfAttachment(_ attachment: EventStreamRecord.Attachment, contract: String)
        -> String?
    {
        if attachment.name.hasPrefix(contract + " "), attachment.name.hasSuffix(".txt") {
            let subject = attachment.name.dropFirst(contract.count + 1).dropLast(4)
            if !subject.isEmpty, !subject.hasSuffix("(not applicable)") { return String(subject) }
        }
        let first = KitMessage.headline(of: attachment.text)
        return first.range(of: " — ").map { String(first[..<$0.lowerBound]) }
    }
}
