import ConformanceKit
import Foundation
import IdempotencyServer

/// An in-process fault server on a free loopback port that a test can stop and start again on
/// the same port and journal (the restart the S5 contract asks for).
final class RestartableServer: Sendable {
    private let server: Locked<FaultServer>
    /// The configuration, with the port the first start chose.
    let configuration: ServerConfiguration

    /// Starts a server; `port: 0` in `configuration` picks a free port that restarts keep.
    init(_ configuration: ServerConfiguration) throws {
        let server = try FaultServer.start(configuration)
        self.server = Locked(rawValue: server)
        var fixed = configuration
        fixed.port = server.port
        self.configuration = fixed
    }

    /// The running server.
    var current: FaultServer { server.rawValue }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { current.baseURL }

    /// The port.
    var port: UInt16 { configuration.port }

    /// Stops the server and starts a new one on the same port and journal.
    func restart() async throws {
        await current.stop()
        let next = try FaultServer.start(configuration)
        server.withLock { $0 = next }
    }

    /// Stops the server.
    func stop() async {
        await current.stop()
    }
}

/// One directory for every journal this test process writes, removed when the process exits (a
/// run of the suite left some forty directories in the system's temporary directory).
private let journalsRoot: URL = {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("fault-server-tests-\(UUID().uuidString)", isDirectory: true)
    atexit { try? FileManager.default.removeItem(at: journalsRoot) }
    return root
}()

/// A fresh temporary directory for one test's journal.
func temporaryDirectory() throws -> URL {
    let url = journalsRoot.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A configuration on a free loopback port.
func loopback(
    mode: FaultMode = .commitThen503, profile: ConflictProfile = .sourceDocument, journal: URL? = nil,
    allowReset: Bool = false, idleTimeout: Duration = .seconds(30)
) -> ServerConfiguration {
    ServerConfiguration(
        host: "127.0.0.1", port: 0, mode: mode, profile: profile, journalPath: journal?.path, allowReset: allowReset,
        idleTimeout: idleTimeout)
}
