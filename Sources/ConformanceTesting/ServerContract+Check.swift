import ConformanceKit
import Foundation
import ServerContracts
import Testing

// No `@retroactive`: ServerContract is declared in this package, and the compiler rejects the
// attribute here ("does not apply; declared in the same package").
extension ServerContract: CustomTestStringConvertible {
    /// The test case's name: the ID and name, such as `S1 same key, same body`.
    public var testDescription: String { descriptor.title }
}

extension ServerContract {
    /// Checks the contract against the server at `baseURL` and records any violation as an
    /// issue at the caller's line, with the whole report attached.
    ///
    /// ```swift
    /// @Test(arguments: ServerContract.all)
    /// func endpointIsIdempotent(_ contract: ServerContract) async {
    ///     await contract.check(against: URL(string: "http://127.0.0.1:8081")!)
    /// }
    /// ```
    ///
    /// A contract that cannot run (S5 without `restart`) records a warning that names it and
    /// the reason, so it is never mistaken for a pass.
    ///
    /// - Parameters:
    ///   - baseURL: The server, such as `http://127.0.0.1:8081`.
    ///   - profile: What the server's conflict answers mean: ``ConflictProfile/ietfDraft`` for
    ///     a server that follows the IETF idempotency-key draft (`422` for a reused key with
    ///     another body, `409` for a key still being processed).
    ///   - restart: Restarts the server on the same storage; without it S5 is skipped.
    ///   - options: The watchdog limit and strictness.
    ///   - sourceLocation: Where issues are recorded; defaults to the caller's line.
    public func check(
        against baseURL: URL,
        profile: ConflictProfile = .sourceDocument,
        restart: (@Sendable () async throws -> Void)? = nil,
        options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: baseURL, profile: profile, restart: restart, options: options)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}
