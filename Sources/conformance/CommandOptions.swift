/// The `conformance` command's arguments.
struct CommandOptions {
    enum Command {
        case matrix
        case list
        case help
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    var command = Command.matrix
    var json = false
    var verbose = false
    var implementationFilter: String?
    var contractFilter: Set<String> = []
    /// Where `--html` writes the report page, if given.
    var htmlPath: String?

    static let usage = """
        usage: swift run conformance [--json] [--verbose] [--html PATH] [--implementation NAME] [--contract ID ...]
               swift run conformance --list
               swift run conformance explore [--html PATH] [...]    (see: conformance explore --help)
               swift run conformance report events.jsonl --html report.html
               swift run conformance sample-page --implementations 60 --contracts 30 --html PATH
               swift run conformance check-server --url http://127.0.0.1:8081 [--ietf] [--json]
               swift run conformance check-server --local [--mode MODE] [--json]
               swift run conformance --help

        Runs every implementation bundled under Conformance/ (references, adopters, mutants)
        against every contract of its family and prints the matrix. Exits 0 exactly when every
        outcome matches the implementations' ledgers and every contract is failed by at least
        one mutant.

          --json                  one JSON object per cell: implementation, kind, level,
                                  contract, outcome, expected, message
          --verbose               print the full bug report of every failure, expected or not
          --html PATH             also write the matrix as one self-contained HTML page
          --implementation NAME   only implementations whose name contains NAME
          --contract ID           only this contract (repeatable: --contract P4 --contract P9)
          --list                  one line per contract: ID, name, tier (tab-separated)
          report                  a team's own run as the same page, from Swift Testing's JSON
                                  event stream (swift test --event-stream-output-path
                                  events.jsonl --event-stream-version 0)
          sample-page             a generated page of the given size (the browser check's scale test)
          check-server            S1–S5 over HTTP against a server by URL, or against the
                                  kit's own fault server started on a free loopback port
        """

    init(parsing arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": json = true
            case "--verbose", "-v": verbose = true
            case "--list": command = .list
            case "--html":
                guard let value = remaining.popFirst() else {
                    throw UsageError(description: "--html needs a file path")
                }
                htmlPath = value
            case "--help", "-h": command = .help
            case "--implementation":
                guard let value = remaining.popFirst() else {
                    throw UsageError(description: "--implementation needs a name")
                }
                implementationFilter = value
            case "--contract":
                guard let value = remaining.popFirst() else {
                    throw UsageError(description: "--contract needs an ID such as P4")
                }
                contractFilter.insert(value.uppercased())
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }
}
