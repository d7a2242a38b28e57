import ConformanceKit
import Foundation

/// Reads a team's own run from Swift Testing's JSON event stream and builds the same report
/// page as the bundled matrix: one row per adapter, one cell per contract.
///
/// ```sh
/// swift test --event-stream-output-path events.jsonl --event-stream-version 0
/// swift run conformance report events.jsonl --html report.html
/// ```
///
/// Nothing more is asked of the team's tests than the one `@Test(arguments:)` line: a test case
/// named by a contract (`P4 late stale response`, or `MyAdapter · P4 late stale response`) is a
/// cell. Its verdict comes from what the kit recorded there: an error issue is a failure, only
/// known issues an expected failure, a case named `(not applicable: …)` or a "was skipped, not
/// passed" report a skipped contract, and a report attached without an error a warning (event
/// stream version 0 carries no warning issues; the kit attaches every warning's report so it
/// still arrives). Every issue and attachment reaches the page; tests that are not contract
/// cases are listed under "Other tests".
///
/// A stream that is torn (cut off mid-line, or without its `runEnded` event), foreign (not
/// JSON, or JSON of another shape) or from another schema version is rejected with an
/// ``EventStreamError`` that names the line and what was expected.
package struct EventStreamReader: Sendable {
    /// Creates a reader.
    package init() {}

    /// Reads the stream at `url`.
    /// - Throws: ``EventStreamError``, or the file system's error when the file cannot be read.
    package func document(contentsOf url: URL) throws -> ReportDocument {
        let data = try Data(contentsOf: url)
        return try document(from: data, source: url.path)
    }

    /// Reads a stream held in memory.
    /// - Parameters:
    ///   - data: The stream's bytes.
    ///   - source: What the page names as its source (the file's path).
    /// - Throws: ``EventStreamError`` naming the line and what was expected.
    package func document(from data: Data, source: String) throws(EventStreamError) -> ReportDocument {
        var run = EventStreamRun()
        var lineNumber = 0
        var sawRecord = false
        var lastLine = 0
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, bytes) in lines.enumerated() {
            lineNumber = index + 1
            let isLast = index == lines.count - 1
            if bytes.allSatisfy({
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t")
            }) {
                continue
            }
            let record = try EventStreamRecord.decode(Data(bytes), line: lineNumber, isLast: isLast)
            sawRecord = true
            lastLine = lineNumber
            if case .event(let event) = record, run.ended {
                throw EventStreamError(
                    line: lineNumber, problem: "a \(event.kind) event after runEnded (two runs in one file?)",
                    expected: "the stream of one run, ending with runEnded")
            }
            run.add(record)
        }
        guard sawRecord else {
            throw EventStreamError(
                line: nil, problem: "the stream is empty",
                expected:
                    "Swift Testing's JSON event stream (`swift test --event-stream-output-path events.jsonl --event-stream-version 0`)"
            )
        }
        guard run.ended else {
            throw EventStreamError(
                line: lastLine,
                problem:
                    "the stream ends without a runEnded event: it is torn (the run crashed, was stopped, or is still writing)",
                expected: "the last record to be the runEnded event of a finished `swift test` run")
        }
        return run.document(source: source)
    }
}
