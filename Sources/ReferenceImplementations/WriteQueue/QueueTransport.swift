import Foundation

/// What ``FileWriteQueue`` sends through: `POST` with an `Idempotency-Key` header.
///
/// In an app this wraps `URLSession`; under test, the conformance kit's controlled transport.
package protocol QueueTransport: Sendable {
    /// Sends one request and returns the HTTP status of the answer.
    /// - Parameters:
    ///   - idempotencyKey: The key chosen when the task was submitted.
    ///   - body: The body bytes stored with the task.
    /// - Returns: The HTTP status code.
    /// - Throws: When no answer arrived (a dropped connection, a timeout): the outcome is
    ///   unknown. `CancellationError` when the sending pass is cancelled.
    func send(idempotencyKey: String, body: Data) async throws -> Int
}
