import ConformanceKit
import Foundation

/// Runs the matrix in a child process (a worker: this same program), so an implementation that
/// traps fails the cell it trapped in instead of ending the run.
///
/// The worker runs every cell as the in-process matrix does and prints the result to the
/// standard output it shares with this process. When it dies by a signal instead, the cells it
/// had started and not ended are rerun one after another, with their steps echoed, until the
/// one that crashes is known with its signal and the steps up to the trap; then the whole matrix
/// runs again with that cell reported as crashed. A crash that happens only beside other cells
/// marks every cell that was running as crashed beside others, so the loop always ends.
enum MatrixSupervisor {
    /// Runs the matrix in workers and returns the exit status of the last one, or `nil` when
    /// no child process can be started here (the caller then runs the matrix in-process).
    static func run(_ options: CommandOptions) -> Int32? {
        #if os(macOS) || os(Linux) || os(Windows)
            guard let executable = Bundle.main.executableURL else { return nil }
            var plan = MatrixWorkerPlan()
            while true {
                guard let result = launch(executable, plan, echo: false) else { return nil }
                guard let signal = result.signal else {
                    FileHandle.standardError.write(Data(result.otherOutput.utf8))
                    return result.status
                }
                let running = result.running
                guard !running.isEmpty else {
                    FileHandle.standardError.write(
                        Data("conformance: the worker died with signal \(signal) outside any cell\n".utf8))
                    return 1
                }
                // An implementation that traps in one cell often traps in others: its cells the
                // run did not finish are probed in the same pass, saving a whole rerun each.
                let ended = Set(result.ended)
                let siblings = Set(running.map(\.implementation)).sorted().flatMap { name in
                    MatrixRun.cells(options, worker: plan).map(\.key).filter {
                        $0.implementation == name && !ended.contains($0) && !running.contains($0)
                    }
                }
                let found = findCrashes(among: running + siblings, executable: executable, plan: plan)
                plan.crashedCells +=
                    found.isEmpty
                    ? running.map { CrashedCell(cell: $0, signal: signal, steps: [], output: [], alone: false) } : found
            }
        #else
            return nil
        #endif
    }

    /// Reruns `suspects` one after another until each has ended or crashed; returns the crashes.
    private static func findCrashes(among suspects: [MatrixCellKey], executable: URL, plan: MatrixWorkerPlan)
        -> [CrashedCell]
    {
        var remaining = suspects
        var crashes: [CrashedCell] = []
        while !remaining.isEmpty {
            var narrowed = plan
            narrowed.onlyCells = Set(remaining)
            narrowed.serial = true
            narrowed.crashedCells += crashes
            guard let result = launch(executable, narrowed, echo: true) else { break }
            let ended = Set(result.ended)
            guard let signal = result.signal, let crashed = result.running.first else { break }
            let (steps, output) = result.transcript(of: crashed)
            crashes.append(CrashedCell(cell: crashed, signal: signal, steps: steps, output: output, alone: true))
            remaining.removeAll { ended.contains($0) || $0 == crashed }
        }
        return crashes
    }

    /// What one worker did: how it ended, the cells it announced, its other standard error.
    private struct WorkerResult {
        let status: Int32
        let signal: Int32?
        let lines: [Substring]
        let otherOutput: String

        /// Cells started and not ended, in the order they started.
        var running: [MatrixCellKey] {
            var started: [MatrixCellKey] = []
            for (announcement, key) in announcements {
                if announcement == .start { started.append(key) } else { started.removeAll { $0 == key } }
            }
            return started
        }

        var ended: [MatrixCellKey] { announcements.filter { $0.0 == .end }.map(\.1) }

        private var announcements: [(MatrixWorkerPlan.Announcement, MatrixCellKey)] {
            lines.compactMap { line in
                guard line.hasPrefix(MatrixWorkerPlan.announcementPrefix) else { return nil }
                let fields = line.dropFirst(MatrixWorkerPlan.announcementPrefix.count).split(separator: "\t")
                guard fields.count == 3, let announcement = MatrixWorkerPlan.Announcement(rawValue: String(fields[0]))
                else { return nil }
                return (announcement, MatrixCellKey(implementation: String(fields[1]), contract: String(fields[2])))
            }
        }

        /// The steps echoed after `cell` started (the worker ran serially), and what else the
        /// process wrote there, such as the runtime's "Fatal error: …" line.
        func transcript(of cell: MatrixCellKey) -> (steps: [String], output: [String]) {
            let startLine = "\(MatrixWorkerPlan.announcementPrefix)start\t\(cell.implementation)\t\(cell.contract)"
            guard let start = lines.lastIndex(where: { $0 == startLine }) else { return ([], []) }
            let after = lines[(start + 1)...]
            let output = after.filter { !$0.hasPrefix(StepEcho.prefix) && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                .prefix { !$0.hasPrefix("Current stack trace") }
            return (StepEcho.parse(after.joined(separator: "\n")), output.prefix(5).map(String.init))
        }
    }

    /// Starts a worker with `plan`, waits for it and reads its standard error.
    private static func launch(_ executable: URL, _ plan: MatrixWorkerPlan, echo: Bool) -> WorkerResult? {
        let process = Process()
        process.executableURL = executable
        process.arguments = Array(CommandLine.arguments.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment[MatrixWorkerPlan.environmentVariable] = plan.encoded
        if echo { environment[StepEcho.environmentVariable] = "1" }
        // The runtime's backtracer symbolicates for tens of seconds; the cell's report names the
        // crash and its steps, and the trap's own message ("Fatal error: …") is kept.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let standardError = Pipe()
        process.standardError = standardError
        if echo || plan.onlyCells != nil { process.standardOutput = FileHandle.nullDevice }
        do { try process.run() } catch { return nil }
        let data = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let other = lines.filter {
            !$0.hasPrefix(MatrixWorkerPlan.announcementPrefix) && !$0.hasPrefix(StepEcho.prefix)
        }.joined(separator: "\n")
        let died = process.terminationReason == .uncaughtSignal
        return WorkerResult(
            status: process.terminationStatus, signal: died ? process.terminationStatus : nil, lines: lines,
            otherOutput: echo || plan.onlyCells != nil || other.isEmpty ? "" : other + (other.hasSuffix("\n") ? "" : "\n"))
    }
}
