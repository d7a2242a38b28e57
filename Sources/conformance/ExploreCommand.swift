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
    var remaining = arguments[...]
    if remaining.first == "explore" { remaining = remaining.dropFirst() }
    var seed: UInt64 = 1
    var budget = 2_000
    var maxSteps = 24
    var depth: Int?
    var json = false
    var verbose = false
    var filter: String?
    var jobs: Int?
    var families: Set<ExploredFamily> = [.pagers, .queues]
    var htmlPath: String?
    let usage = """
        usage: conformance explore [--seed S] [--budget N] [--steps N] [--depth D] [--jobs N] [--pagers | --queues] [--json] [--html PATH] [--verbose] [--implementation NAME]

          --seed S                the seed of every random choice (default 1); printed with each finding
          --budget N              the most schedules per implementation (default 2000)
          --steps N               the length of each random schedule (default 24)
          --depth D               bounded exhaustive search to D steps instead of random schedules (duplicate states pruned)
          --jobs N                schedules run at once (default: every core)
          --pagers                only the pagers (I1–I6)
          --queues                only the write queues (I7–I9 and the Q rules one state can break)
          --json                  one JSON object per implementation
          --html PATH             also write the findings as one self-contained HTML page
          --verbose               print each finding's bug report and regression test
          --implementation NAME   only implementations whose name contains NAME
        """
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("conformance explore: \(message)\n\(usage)\n".utf8))
        return 2
    }
    func number(_ flag: String) -> Int? {
        remaining.popFirst().flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--seed":
            guard let value = remaining.popFirst().flatMap({ UInt64($0) }) else { return fail("--seed needs a number") }
            seed = value
        case "--budget":
            guard let value = number(argument) else { return fail("--budget needs a positive number") }
            budget = value
        case "--steps":
            guard let value = number(argument) else { return fail("--steps needs a positive number") }
            maxSteps = value
        case "--depth":
            guard let value = number(argument) else { return fail("--depth needs a positive number") }
            depth = value
        case "--jobs":
            guard let value = number(argument) else { return fail("--jobs needs a positive number") }
            jobs = value
        case "--pagers": families = [.pagers]
        case "--queues": families = [.queues]
        case "--json": json = true
        case "--html":
            guard let value = remaining.popFirst() else { return fail("--html needs a file path") }
            htmlPath = value
        case "--verbose", "-v": verbose = true
        case "--implementation":
            guard let value = remaining.popFirst() else { return fail("--implementation needs a name") }
            filter = value
        case "--help", "-h":
            print(usage)
            return 0
        default:
            return fail("unknown argument \"\(argument)\"")
        }
    }
    let options = ExplorationOptions(
        strategy: depth.map { .exhaustive(depth: $0) } ?? .random(seed: seed), budget: budget,
        maxSteps: maxSteps, parallelism: jobs)
    let pagers = families.contains(.pagers) ? BundledImplementations.pagers : []
    let selected = (pagers + (families.contains(.queues) ? BundledImplementations.queues : [])).filter { implementation in
        filter.map { implementation.name.contains($0) } ?? true
    }
    var rows: [ExploreRow] = []
    var results: [ExplorationResult] = []
    let start = ContinuousClock.now
    for implementation in selected {
        guard let result = await implementation.explore(options) else {
            if !json {
                let contracts = implementation.ledger.contracts.map(\.rawValue).joined(separator: ", ")
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
            if verbose, result.finding != nil { print("\n" + result.fullText + "\n") }
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
