#if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
import Foundation
import ReferenceImplementations

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child's transport: optionally records the request as committed by the server, then
/// kills its own process before any answer can arrive.
struct KillingTransport: QueueTransport {
    /// What the child's "server" received before the child died.
    struct Received: Codable {
        let key: String
        let body: Data
    }

    let received: URL
    let commitsFirst: Bool

    func send(idempotencyKey: String, body: Data) async throws -> Int {
        if commitsFirst {
            try JSONEncoder().encode(Received(key: idempotencyKey, body: body)).write(to: received, options: .atomic)
        }
        kill(getpid(), SIGKILL)
        return 0
    }
}
#endif
