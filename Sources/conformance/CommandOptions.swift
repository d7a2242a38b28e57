/// The `conformance` command's arguments (the matrix, the main job).
struct CommandOptions {
    var json = false
    var verbose = false
    /// `--help` was given with the matrix's options.
    var help = false
    var implementationFilter: String?
    var contractFilter: Set<String> = []
    /// Where `--html` writes the report page, if given.
    var htmlPath: String?

    /// The matrix's synopsis, summary and options.
    static let subcommand = Subcommand(
        name: nil,
        synopsis: ["[--json] [--verbose] [--html PATH] [--implementation NAME] [--contract ID ...]"],
        summary: """
            Runs every implementation bundled under Conformance/ (references, adopters, mutants)
            against every contract of its family and prints the matrix. Exits 0 exactly when every
            outcome matches the implementations' ledgers and every contract is failed by at least
            one mutant. The cells run in a child process: an implementation that traps fails the
            cell it trapped in, named as a crash with its signal, and the run goes on.
            """,
        options: [
            CommandOption(
                "--json",
                help: "one JSON object per cell: implementation, kind, level, contract, outcome, expected, message"),
            CommandOption("--verbose", "-v", help: "print the full bug report of every failure, expected or not"),
            CommandOption("--html", value: .text("PATH"), help: "also write the matrix as one self-contained HTML page"),
            CommandOption(
                "--implementation", value: .text("NAME"), help: ImplementationNameFilter.help),
            CommandOption(
                "--contract", value: .text("ID"), help: "only this contract (repeatable: --contract P4 --contract P9)"),
        ])

    /// Reads the matrix's arguments.
    init(parsing arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.subcommand)
        json = parsed.isSet("--json")
        verbose = parsed.isSet("--verbose")
        help = parsed.isSet("--help")
        htmlPath = parsed.value("--html")
        implementationFilter = parsed.value("--implementation")
        contractFilter = Set(parsed.values("--contract").map { $0.uppercased() })
    }
}
