import ConformanceKit
import Foundation

/// A cell's name between the supervising `conformance` process and its worker.
struct MatrixCellKey: Hashable, Codable, Sendable, CustomStringConvertible {
    let implementation: String
    let contract: String

    var description: String { "\(implementation) \(contract)" }
}

/// What the supervising `conformance` process asks of the worker process that runs the cells,
/// passed in one environment variable as JSON, so the command line a user typed reaches the
/// worker unchanged.
///
/// The worker announces each cell it starts and ends on standard error (lines starting with
/// ``MatrixWorkerPlan/announcementPrefix``), so when it dies by a signal the supervisor knows
/// which cells were running.
struct MatrixWorkerPlan: Codable, Sendable {
    /// Cells known to crash, with how: the worker reports them without running them.
    var crashedCells: [CrashedCell] = []
    /// Only these cells, when set (the supervisor narrowing down a crash).
    var onlyCells: Set<MatrixCellKey>?
    /// One cell after another, so a crash names exactly one cell.
    var serial = false

    /// The environment variable that carries the plan; a process that has it is a worker.
    static let environmentVariable = "CONFORMANCE_MATRIX_WORKER"

    /// What starts every announcement line.
    static let announcementPrefix = "\u{1E}conformance-cell "

    /// The plan this process was started with, or `nil` when it is not a worker.
    static var current: MatrixWorkerPlan? {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable] else { return nil }
        return try? JSONDecoder().decode(MatrixWorkerPlan.self, from: Data(text.utf8))
    }

    /// The plan as the environment variable's value.
    var encoded: String {
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    enum Announcement: String {
        case start
        case end
    }

    /// Tells the supervisor a cell started or ended (unbuffered, so it survives a trap).
    func announce(_ announcement: Announcement, _ cell: MatrixCell) {
        let key = cell.key
        FileHandle.standardError.write(
            Data("\(Self.announcementPrefix)\(announcement.rawValue)\t\(key.implementation)\t\(key.contract)\n".utf8))
    }
}
