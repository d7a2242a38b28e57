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
    var remaining = arguments.dropFirst()
    var input: String?
    var output: String?
    let usage = """
        usage: conformance report EVENTS.jsonl --html REPORT.html

          EVENTS.jsonl            Swift Testing's event stream: swift test --event-stream-output-path EVENTS.jsonl --event-stream-version 0
          --html PATH             where to write the page (nothing is written if the stream cannot be read)
        """
    func fail(_ message: String, status: Int32 = 2) -> Int32 {
        FileHandle.standardError.write(
            Data("conformance report: \(message)\n\(status == 2 ? usage + "\n" : "")".utf8))
        return status
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--html":
            guard let value = remaining.popFirst() else { return fail("--html needs a file path") }
            output = value
        case "--help", "-h":
            print(usage)
            return 0
        default:
            guard input == nil, !argument.hasPrefix("-") else {
                return fail("unknown argument \"\(argument)\"")
            }
            input = argument
        }
    }
    guard let input else { return fail("give the event stream's path") }
    guard let output else { return fail("give --html PATH for the page") }
    let document: ReportDocument
    do {
        document = try EventStreamReader().document(contentsOf: URL(fileURLWithPath: input))
    } catch let error as EventStreamError {
        return fail("\(input): \(error)\nno page was written.", status: 1)
    } catch {
        return fail("cannot read \(input): \(error.localizedDescription)\nno page was written.", status: 1)
    }
    return writePage(document, to: output, command: "conformance report") ? 0 : 1
}
