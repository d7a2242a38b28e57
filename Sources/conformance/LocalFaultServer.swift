import ConformanceKit
import Foundation
import IdempotencyServer

/// The kit's own fault server, started by `check-server --local` on a free loopback port with a
/// temporary journal, so the S5 check can restart it on the same port and journal.
final class LocalFaultServer: Sendable {
    /// The running server: a restart replaces it.
    private let server: Locked<FaultServer>
    private let configuration: ServerConfiguration
    private let directory: URL

    /// Starts the server in `mode`, answering conflicts by `profile`.
    init(mode: FaultMode, profile: ConflictProfile) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("fault-server-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, mode: mode, profile: profile, journalPath: directory.appendingPathComponent("journal.jsonl").path)
        let first = try FaultServer.start(configuration)
        server = Locked(rawValue: first)
        configuration.port = first.port
        self.configuration = configuration
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { server.rawValue.baseURL }

    /// Stops the server and starts it again on the same port and journal.
    @Sendable func restart() async throws {
        await server.rawValue.stop()
        let next = try FaultServer.start(configuration)
        server.withLock { $0 = next }
    }

    /// Stops the server and removes its journal.
    func stop() async {
        await server.rawValue.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
