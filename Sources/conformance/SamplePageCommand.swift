import Foundation
import HTMLReport

/// `conformance sample-page --implementations 60 --contracts 30 --html PATH`: a generated page
/// of the given size, with every verdict and a realistic report in each failing cell, for the
/// browser check's load, filter and size measurements.
///
/// - Returns: 0 when written, 1 when it cannot be, 2 for bad arguments.
func runSamplePage(arguments: [String]) -> Int32 {
    let parsed: ParsedArguments
    do {
        parsed = try ParsedArguments(arguments.dropFirst(), for: samplePageSubcommand)
    } catch {
        return CommandLineSyntax.fail(error, samplePageSubcommand)
    }
    if parsed.isSet("--help") {
        print(samplePageSubcommand.usage)
        return 0
    }
    let implementations = parsed.number("--implementations") ?? 60
    let contracts = parsed.number("--contracts") ?? 30
    guard let output = parsed.value("--html") else {
        return CommandLineSyntax.fail(UsageError(description: "give --html PATH"), samplePageSubcommand)
    }
    let document = SampleReport.document(implementations: implementations, contracts: contracts)
    return writePage(document, to: output, command: "conformance sample-page") ? 0 : 1
}

/// `conformance sample-page`'s synopsis, summary and options.
let samplePageSubcommand = Subcommand(
    name: "sample-page",
    synopsis: ["sample-page [--implementations N] [--contracts N] --html PATH"],
    summary: "A generated report page of the given size, for the browser check's load, filter and size measurements.",
    options: [
        CommandOption("--implementations", value: .positiveNumber("N"), help: "rows (default 60)"),
        CommandOption("--contracts", value: .positiveNumber("N"), help: "columns (default 30)"),
        CommandOption("--html", value: .text("PATH"), help: "where to write the page"),
    ])
