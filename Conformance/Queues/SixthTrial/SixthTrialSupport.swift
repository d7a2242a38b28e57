import Foundation

/// Collects an outbox's log lines so the adapter can hand them to the kit (Q10).
public final class R6LogSink: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
    var log: @Sendable (String) -> Void { { [self] line in append(line) } }
}

/// A live queue instance plus its log.
public struct R6Instance<Outbox: Sendable>: Sendable {
    let outbox: Outbox
    let logs: R6LogSink
}

enum R6Fixture {
    static let sensitiveFields: Set<String> = ["card", "password", "token"]

    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("r6q-\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func status(code: Int) -> String { "HTTP \(code)" }
}
