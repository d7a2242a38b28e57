import Foundation
import IdempotencyServer

/// The kit's own fault server, started by `check-server --local` on a free loopback port with a
/// temporary journal, so the S5 check can restart it on the same port and journal.
final class LocalFaultServer: @unchecked Sendable {
    private let lock = NSLock()
    private var server: FaultServer
    private let configuration: ServerConfiguration
    private let directory: URL

    /// Starts the server in `mode`.
    init(mode: FaultMode) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("fault-server-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, mode: mode, journalPath: directory.appendingPathComponent("journal.jsonl").path)
        server = try FaultServer.start(configuration)
        configuration.port = server.port
        self.configuration = configuration
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { lock.withLock { server.baseURL } }

    /// Stops the server and starts it again on the same port and journal.
    @Sendable func restart() async throws {
        let old = lock.withLock { server }
        await old.stop()
        let next = try FaultServer.start(configuration)
        lock.withLock { server = next }
    }

    /// Stops the server and removes its journal.
    func stop() async {
        await lock.withLock { server }.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
