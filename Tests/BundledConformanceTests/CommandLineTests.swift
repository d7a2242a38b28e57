import Foundation
import Testing

/// The built `conformance` command, run as a user runs it.
@Suite("conformance command", .enabled(if: ConformanceCommand.isBuilt, "needs the built conformance binary (swift build)"))
struct CommandLineTests {
    @Test func helpListsEverySubcommand() throws {
        let run = try ConformanceCommand.run(["--help"])
        #expect(run.status == 0)
        for subcommand in ["explore", "report", "sample-page", "check-server", "--list"] {
            #expect(run.output.contains("conformance \(subcommand)"), "usage lacks \(subcommand)")
        }
    }

    @Test(arguments: [["--bogus"], ["explore", "--budget", "none"], ["report"], ["check-server", "--url", "ftp://x"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) throws {
        let run = try ConformanceCommand.run(arguments)
        #expect(run.status == 2)
        #expect(run.errorOutput.contains("usage: conformance"))
    }

    /// A name that is an implementation's whole name selects it alone, not also the mutants
    /// named after it (`BuggyWorkOrderOutbox`); a part of a name still selects every match.
    @Test func anExactNameSelectsThatImplementationAlone() throws {
        struct Cell: Decodable { let implementation: String }
        let exact = try ConformanceCommand.run(["--implementation", "WorkOrderOutbox", "--json"])
        #expect(exact.status == 0, "\(exact.errorOutput)")
        let named = Set(try JSONDecoder().decode([Cell].self, from: Data(exact.output.utf8)).map(\.implementation))
        #expect(named == ["WorkOrderOutbox"])
        let part = try ConformanceCommand.run(["--implementation", "WorkOrderOut", "--json"])
        #expect(part.status == 0, "\(part.errorOutput)")
        let matched = Set(try JSONDecoder().decode([Cell].self, from: Data(part.output.utf8)).map(\.implementation))
        #expect(matched == ["WorkOrderOutbox", "BuggyWorkOrderOutbox"])
    }

    @Test func aTrappingPagerFailsTheCellsItTrappedInAndTheRunGoesOn() throws {
        let run = try ConformanceCommand.run(["--implementation", "TrapOnRepeatedIDPager", "--json"])
        #expect(run.status == 0, "\(run.errorOutput)")
        struct Cell: Decodable {
            let contract, outcome, message: String
            let matchesLedger: Bool
        }
        let cells = try JSONDecoder().decode([Cell].self, from: Data(run.output.utf8))
        let crashed = cells.filter { $0.message.contains("crashed with signal") }
        #expect(crashed.map(\.contract) == ["P2", "P12"])
        #expect(crashed.allSatisfy { $0.outcome == "failed" })
        #expect(cells.count == 13 && cells.allSatisfy(\.matchesLedger))
    }
}

/// Finds and runs the `conformance` binary `swift build` put next to the test bundle.
enum ConformanceCommand {
    static var binary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("conformance")
    }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    struct Run {
        let status: Int32
        let output: String
        let errorOutput: String
    }

    /// Runs the command with its output streams in temporary files (no pipe can fill up), and
    /// returns once it has exited.
    static func run(_ arguments: [String]) throws -> Run {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-command-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: try String(contentsOf: outputURL, encoding: .utf8),
            errorOutput: try String(contentsOf: errorURL, encoding: .utf8))
    }
}
