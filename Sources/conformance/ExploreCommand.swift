import BundledImplementations
import ConformanceKit
import Foundation

/// `conformance explore [--seed S] [--budget N] [--steps N] [--depth D] [--pagers | --queues]
/// [--json] [--verbose] [--implementation NAME]`: explores every bundled pager and write queue
/// through generated schedules, checks the invariants (and, for queues, the Q rules one state
/// can break) after every step, and prints, per implementation, what it found and how short the
/// shrunk schedule is next to the fixed contract timeline that catches the same mutant.
///
/// - Parameter arguments: The arguments after the program name; a leading `explore` is ignored.
/// - Returns: 0 exactly when every mutant is found with a shrunk schedule no longer than its
///   fixed timeline and no reference or adopter is flagged; 1 otherwise; 2 for bad arguments.
func runExplore(arguments: [String]) async -> Int32 {
    let parsed: ParsedArguments
    do {
        parsed = try ParsedArguments(arguments.drop { $0 == "explore" }, for: exploreSubcommand)
    } catch {
        return CommandLineSyntax.fail(error, exploreSubcommand)
    }
    if parsed.isSet("--help") {
        print(exploreSubcommand.usage)
        return 0
    }
    guard !(parsed.isSet("--pagers") && parsed.isSet("--queues")) else {
        return CommandLineSyntax.fail(UsageError(description: "give --pagers or --queues, not both"), exploreSubcommand)
    }
    let seed = parsed.value("--seed").flatMap { UInt64($0) } ?? 1
    let budget = parsed.number("--budget") ?? 2_000
    let maxSteps = parsed.number("--steps") ?? 24
    let depth = parsed.number("--depth")
    let json = parsed.isSet("--json")
    let verbose = parsed.isSet("--verbose")
    let filter = parsed.value("--implementation")
    let jobs = parsed.number("--jobs")
    let families: Set<ExploredFamily> =
        parsed.isSet("--pagers") ? [.pagers] : parsed.isSet("--queues") ? [.queues] : [.pagers, .queues]
    let htmlPath = parsed.value("--html")
    let requiredOnly = parsed.isSet("--required-only")
    let expecting = Set(parsed.values("--expecting").map { ContractID($0.uppercased()) })
    let options = ExplorationOptions(
        strategy: depth.map { .exhaustive(depth: $0) } ?? .random(seed: seed), budget: budget,
        maxSteps: maxSteps, parallelism: jobs, expecting: expecting, requiredOnly: requiredOnly)
    let pagers = families.contains(.pagers) ? BundledImplementations.pagers : []
    let selected = ImplementationNameFilter(text: filter).select(
        pagers + (families.contains(.queues) ? BundledImplementations.queues : []), name: \.name)
    var rows: [ExploreRow] = []
    var results: [ExplorationResult] = []
    let start = ContinuousClock.now
    for implementation in selected {
        guard let result = await implementation.explore(options) else {
            if !json {
                // In the ledger's order (the set of IDs has none: the line changed run to run).
                var listed: [String] = []
                for entry in implementation.ledger.entries where entry.blockedBy == nil && !listed.contains(entry.contract.rawValue) {
                    listed.append(entry.contract.rawValue)
                }
                let contracts = listed.joined(separator: ", ")
                let reason =
                    implementation.kind == .mutant && !contracts.isEmpty
                    ? "left to its fixed contracts \(contracts), which catch it (its registry entry says why)"
                    : "left to its fixed contracts (its registry entry says why)"
                print("\(implementation.name) (\(implementation.kind.rawValue), \(implementation.level.rawValue)): not explored: \(reason)")
            }
            continue
        }
        let row = await ExploreRow(implementation: implementation, result: result)
        rows.append(row)
        results.append(result)
        if !json {
            print(row.line)
            if verbose, result.finding != nil {
                print("\n" + result.fullText + "\n")
            } else if let unreproduced = result.unreproducedReport {
                // Shown without --verbose too: on a correct implementation it is the only trace
                // of a race that some interleavings reach (a CI log that said only "1 failure
                // whose replay passed" for `TickerOutbox` left its rule and step unknown).
                print("\n" + unreproduced + "\n")
            }
        }
    }
    let succeeded = rows.allSatisfy(\.ok)
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(rows)) ?? Data("[]".utf8)
        print(String(decoding: data, as: UTF8.self))
    } else {
        let found = rows.filter { $0.kind == "mutant" && $0.level != "queue" && $0.found }.count
        let mutants = rows.filter { $0.kind == "mutant" && $0.level != "queue" }.count
        let queueFound = rows.filter { $0.kind == "mutant" && $0.level == "queue" && $0.found }.count
        let queueMutants = rows.filter { $0.kind == "mutant" && $0.level == "queue" }.count
        let flagged = rows.filter { $0.kind != "mutant" && $0.found }.map(\.implementation)
        print(
            "\nexplore (\(options.strategy), budget \(budget)): "
                + (mutants > 0 ? "\(found) of \(mutants) pager mutants found; " : "")
                + (queueMutants > 0 ? "\(queueFound) of \(queueMutants) queue mutants found; " : "")
                + (flagged.isEmpty ? "no reference or adopter flagged" : "flagged: \(flagged.joined(separator: ", "))")
                + (succeeded ? " — OK" : " — FAILED"))
    }
    if let htmlPath {
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let document = ExploreRow.reportDocument(
            rows: rows, results: results, strategy: "\(options.strategy), budget \(budget)", seconds: seconds,
            succeeded: succeeded)
        guard writePage(document, to: htmlPath, command: "conformance explore") else { return 1 }
    }
    return succeeded ? 0 : 1
}

/// Which implementations `conformance explore` covers.
enum ExploredFamily: Hashable {
    case pagers
    case queues
}

/// `conformance explore`'s synopsis, summary and options.
let exploreSubcommand = Subcommand(
    name: "explore",
    synopsis: [
        "explore [--seed S] [--budget N] [--steps N] [--depth D] [--jobs N] [--pagers | --queues] [--required-only] [--expecting ID ...] [--json] [--html PATH] [--verbose] [--implementation NAME]"
    ],
    summary: """
        Explores every bundled pager and write queue through generated schedules, checks the
        invariants after every step, and prints what it found per implementation: every distinct
        broken rule within the budget, each shrunk and named by its contract. Exits 0 exactly when
        every mutant is found and no reference or adopter is flagged.
        """,
    options: [
        CommandOption(
            "--seed", value: .unsignedNumber("S"),
            help: "the seed of every random choice (default 1); printed with each finding"),
        CommandOption("--budget", value: .positiveNumber("N"), help: "the most schedules per implementation (default 2000)"),
        CommandOption("--steps", value: .positiveNumber("N"), help: "the length of each random schedule (default 24)"),
        CommandOption(
            "--depth", value: .positiveNumber("D"),
            help: "bounded exhaustive search to D steps instead of random schedules (duplicate states pruned)"),
        CommandOption("--jobs", value: .positiveNumber("N"), help: "schedules run at once (default: every core)"),
        CommandOption("--pagers", help: "only the pagers (I1–I6)"),
        CommandOption("--queues", help: "only the write queues (I7–I9 and the Q rules one state can break)"),
        CommandOption("--required-only", help: "only findings of required rules count (recommended ones are not reported)"),
        CommandOption(
            "--expecting", value: .text("ID"),
            help: "a rule whose findings are known (repeatable): shown, never failing; reported if it stops happening"),
        CommandOption("--json", help: "one JSON object per implementation"),
        CommandOption("--html", value: .text("PATH"), help: "also write the findings as one self-contained HTML page"),
        CommandOption("--verbose", "-v", help: "print each finding's bug report and regression test"),
        CommandOption("--implementation", value: .text("NAME"), help: ImplementationNameFilter.help),
    ])
