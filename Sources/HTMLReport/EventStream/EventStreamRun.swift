import ConformanceKit
import Foundation

/// What a report needs from one run's event stream, gathered record by record, and the
/// report page's document built from it.
struct EventStreamRun {
    /// What happened inside one test, or one case of a parameterized test.
    struct Case {
        var issues: [EventStreamRecord.Issue] = []
        var attachments: [EventStreamRecord.Attachment] = []
        var skipped: String?
    }

    struct Key: Hashable {
        let testID: String
        let testCase: String?
    }

    private(set) var ended = false
    private var tests: [String: EventStreamRecord.Test] = [:]
    private var testOrder: [String] = []
    private var cases: [Key: Case] = [:]
    private var caseOrder: [Key] = []
    private var started: Double?
    private var finished: Double?
    private var libraryVersion: String?

    mutating func add(_ record: EventStreamRecord) {
        switch record {
        case .test(let test):
            if tests[test.id] == nil { testOrder.append(test.id) }
            tests[test.id] = test
        case .event(let event):
            add(event)
        }
    }

    private mutating func add(_ event: EventStreamRecord.Event) {
        switch event.kind {
        case "runStarted":
            started = event.instant
            libraryVersion = event.messages.first { $0.text.hasPrefix("Testing Library Version") }?.text
        case "runEnded":
            finished = event.instant
            ended = true
        default:
            guard let testID = event.testID else { return }
            // A test function that is not parameterized has no case; its events belong to it.
            let key = Key(testID: testID, testCase: event.testCase)
            func update(_ change: (inout Case) -> Void) {
                if cases[key] == nil { caseOrder.append(key) }
                change(&cases[key, default: Case()])
            }
            switch event.kind {
            case "testCaseStarted", "testStarted":
                guard event.kind == "testCaseStarted" || tests[testID]?.isParameterized != true else {
                    return
                }
                update { _ in }
            case "testSkipped":
                update {
                    $0.skipped =
                        event.messages.dropFirst().first?.text ?? event.messages.first?.text ?? "skipped"
                }
            case "issueRecorded":
                if let issue = event.issue { update { $0.issues.append(issue) } }
            case "valueAttached":
                if let attachment = event.attachment { update { $0.attachments.append(attachment) } }
            default:
                return
            }
        }
    }

    /// The page's document: one group per contract family, plus the other tests.
    func document(source: String) -> ReportDocument {
        var cells: [ContractCell] = []
        var others: [(key: Key, result: Case)] = []
        var subjectOfTest: [String: String] = [:]
        for key in caseOrder {
            guard let result = cases[key] else { continue }
            // A suite's own events matter only when it recorded something.
            if tests[key.testID]?.kind == "suite", result.issues.isEmpty, result.attachments.isEmpty {
                continue
            }
            let found = ContractCell.cells(testCase: key.testCase, result: result)
            if found.isEmpty {
                others.append((key, result))
            } else {
                for cell in found {
                    if cell.row == nil, let subject = cell.subject {
                        subjectOfTest[key.testID] = subjectOfTest[key.testID] ?? subject
                    }
                    cells.append(ContractCell(testID: key.testID, base: cell))
                }
            }
        }
        var groups: [ReportGroup] = []
        let byFamily = Dictionary(grouping: cells) { ReportColumn.family(of: $0.contract) }
        for family in byFamily.keys.sorted() {
            let familyCells = byFamily[family] ?? []
            let contracts = Set(familyCells.map(\.contract)).sorted { ContractID($0) < ContractID($1) }
            let columns = contracts.map { id in
                ContractCatalog.all.first { $0.id.rawValue == id }.map(ReportColumn.init)
                    ?? ReportColumn(id: id, name: familyCells.first { $0.contract == id }?.name ?? "")
            }
            var rowOrder: [String] = []
            var rowCells: [String: [ReportCell]] = [:]
            var rowNotes: [String: String] = [:]
            for cell in familyCells {
                let test = tests[cell.testID]
                let row =
                    cell.row ?? subjectOfTest[cell.testID] ?? test.map { displayName(of: $0) } ?? cell.testID
                if rowCells[row] == nil { rowOrder.append(row) }
                if !(rowCells[row] ?? []).contains(where: { $0.column == cell.contract }) {
                    rowCells[row, default: []].append(cell.cell)
                }
                if let test {
                    rowNotes[row] =
                        "\(displayName(of: test))" + (test.sourceLocation.map { " — \($0)" } ?? "")
                }
            }
            let level =
                family.hasPrefix("Pagers")
                ? "pager" : family.hasPrefix("Write") ? "queue" : family.hasPrefix("Servers") ? "server" : ""
            let rows = rowOrder.map { name in
                ReportRow(
                    name: name, kind: "team", level: level, note: rowNotes[name] ?? "",
                    cells: rowCells[name] ?? [])
            }
            groups.append(ReportGroup(family: family, columns: columns, rows: rows))
        }
        if !others.isEmpty {
            let rows = others.map { other -> ReportRow in
                let test = tests[other.key.testID]
                var name = test.map { displayName(of: $0) } ?? other.key.testID
                if let testCase = other.key.testCase { name += " · " + testCase }
                return ReportRow(
                    name: name, kind: "test", level: "", note: test?.sourceLocation ?? "",
                    cells: [ContractCell.otherTestCell(other.result)])
            }
            groups.append(
                ReportGroup(
                    family: "Other tests",
                    columns: [ReportColumn(id: "result", name: "the test's own result")], rows: rows))
        }
        var notes: [String] = []
        if let libraryVersion { notes.append("Swift Testing event stream version 0; \(libraryVersion).") }
        notes.append(
            "Event stream version 0 carries no warning issues: skipped contracts and recommended-rule warnings reach this page through the report the kit attaches to each of them."
        )
        let seconds = started.flatMap { start in finished.map { $0 - start } }
        return ReportDocument(
            title: "Conformance report", source: source, runSeconds: seconds, notes: notes, groups: groups,
            rowNoun: others.isEmpty ? "implementations" : "rows")
    }

    private func displayName(of test: EventStreamRecord.Test) -> String {
        test.displayName ?? test.name
    }
}
