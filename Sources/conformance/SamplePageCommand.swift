import Foundation
import HTMLReport

/// `conformance sample-page --implementations 60 --contracts 30 --html PATH`: a generated page
/// of the given size, with every verdict and a realistic report in each failing cell, for the
/// browser check's load, filter and size measurements.
///
/// - Returns: 0 when written, 1 when it cannot be, 2 for bad arguments.
func runSamplePage(arguments: [String]) -> Int32 {
    var remaining = arguments.dropFirst()
    var implementations = 60
    var contracts = 30
    var output: String?
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(
            Data(
                "conformance sample-page: \(message)\nusage: conformance sample-page [--implementations N] [--contracts N] --html PATH\n"
                    .utf8))
        return 2
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--implementations":
            guard let value = remaining.popFirst().flatMap({ Int($0) }), value > 0 else {
                return fail("--implementations needs a positive number")
            }
            implementations = value
        case "--contracts":
            guard let value = remaining.popFirst().flatMap({ Int($0) }), value > 0 else {
                return fail("--contracts needs a positive number")
            }
            contracts = value
        case "--html":
            guard let value = remaining.popFirst() else { return fail("--html needs a file path") }
            output = value
        default:
            return fail("unknown argument \"\(argument)\"")
        }
    }
    guard let output else { return fail("give --html PATH") }
    let document = SampleReport.document(implementations: implementations, contracts: contracts)
    return writePage(document, to: output, command: "conformance sample-page") ? 0 : 1
}
