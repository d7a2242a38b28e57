import WriteQueueContracts
import Foundation

/// Shared glue: the kit's transport behind the app's `R4Transport`, and the app's log sink as a file
/// in the storage directory (what an app logger writing to disk would leave behind).
enum R4Glue {
    static let baseURL = URL(string: "https://api.example.com")!

    static func transport(_ environment: QueueEnvironment) -> R4Transport {
        let kit = environment.transport
        return { request in
            let response = try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body ?? Data()))
            return R4HTTPResponse(statusCode: response.statusCode, body: response.body)
        }
    }

    /// The kit's operation becomes an app operation; the kit's ID travels in the (non-sensitive) label.
    static func operation(_ op: QueueOperation) -> R4Operation {
        R4Operation(path: "tickets", body: op.body, label: op.id)
    }

    static func makeDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("r4q-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private static let logLock = NSLock()

    static func logger(_ dir: URL) -> R4Log {
        { line in
            logLock.withLock {
                let url = dir.appendingPathComponent("diagnostics.log")
                var data = (try? Data(contentsOf: url)) ?? Data()
                data.append(Data((line + "\n").utf8))
                try? data.write(to: url)
            }
        }
    }

    static func logLines(_ dir: URL) -> [String] {
        logLock.withLock {
            let text = (try? String(contentsOf: dir.appendingPathComponent("diagnostics.log"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }
    }

    /// Never called by the queues: a transport for read-only instances that only load storage.
    static let unusedTransport: R4Transport = { _ in throw CancellationError() }

    /// All queues back off exponentially (2 s base), capped at 5 minutes.
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: .seconds(300)))
}
