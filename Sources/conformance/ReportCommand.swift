import Foundation
import HTMLReport

/// `conformance report events.jsonl --html report.html`: a team's own run, read from Swift
/// Testing's JSON event stream, as the same report page as the bundled matrix.
///
/// ```sh
/// swift test --event-stream-output-path events.jsonl --event-stream-version 0
/// swift run conformance report events.jsonl --html report.html
/// ```
///
/// - Parameter arguments: The arguments after the program name, starting with `report`.
/// - Returns: 0 when the page is written; 1 when the stream is torn, foreign or of another
///   version (the error names the line and what was expected, and no page is written); 2 for
///   bad arguments.
func runReport(arguments: [String]) -> Int32 {
    let parsed: ParsedArguments
    do {
        parsed = try ParsedArguments(arguments.dropFirst(), for: reportSubcommand)
    } catch {
        return CommandLineSyntax.fail(error, reportSubcommand)
    }
    if parsed.isSet("--help") {
        print(reportSubcommand.usage)
        return 0
    }
    guard let input = parsed.positional else {
        return CommandLineSyntax.fail(UsageError(description: "give the event stream's path"), reportSubcommand)
    }
    guard let output = parsed.value("--html") else {
        return CommandLineSyntax.fail(UsageError(description: "give --html PATH for the page"), reportSubcommand)
    }
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("conformance report: \(message)\n".utf8))
        return 1
    }
    let document: ReportDocument
    do {
        document = try EventStreamReader().document(contentsOf: URL(fileURLWithPath: input))
    } catch let error as EventStreamError {
        return fail("\(input): \(error)\nno page was written.")
    } catch {
        return fail("cannot read \(input): \(error.localizedDescription)\nno page was written.")
    }
    return writePage(document, to: output, command: "conformance report") ? 0 : 1
}

/// `conformance report`'s synopsis, summary and options.
let reportSubcommand = Subcommand(
    name: "report",
    synopsis: ["report EVENTS.jsonl --html REPORT.html"],
    summary: """
        A team's own run as the same page as the matrix, from Swift Testing's JSON event stream
        (swift test --event-stream-output-path EVENTS.jsonl --event-stream-version 0). A torn,
        foreign or other-version stream is refused with the line and what was expected.
        """,
    options: [
        CommandOption(
            "--html", value: .text("PATH"),
            help: "where to write the page (nothing is written if the stream cannot be read)")
    ],
    positional: "EVENTS.jsonl")
