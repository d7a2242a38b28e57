import ConformanceKit
import Foundation

/// One idempotency-server contract (S1–S5), checked over HTTP against any base URL.
///
/// Point it at the kit's own fault server or at a team's real endpoint that claims
/// idempotency-key semantics (`POST /items` with an `Idempotency-Key` header and a JSON body,
/// answering repeats with `{"id": …, "record_count": …}`):
///
/// ```swift
/// for contract in ServerContract.all {
///     let report = await contract.run(against: URL(string: "http://127.0.0.1:8081")!)
///     print(report.headline)
/// }
/// ```
///
/// Each run uses fresh random keys, printed in the transcript, so runs never collide. The
/// checks compare `record_count` only as a difference within one run; a server that other
/// clients write to at the same moment can make S3 and S4 report foreign records.
///
/// ## Conforming to the S contracts
///
/// - **S1** A repeat of a key with the same body returns the original record and creates none.
/// - **S2** A reused key with another body gets `409` (`422` when the server declares the IETF
///   idempotency-key draft profile) and the stored record is unchanged.
/// - **S3** A missing key, an empty body or a body that is not JSON gets `400`; nothing is recorded.
/// - **S4** Fifty concurrent requests with one key make exactly one record.
/// - **S5** A record survives a restart (checked only when the caller can restart the server).
public struct ServerContract: Hashable, Sendable, CustomStringConvertible {
    /// The catalogue entry: ID, name, rule and tier.
    public let descriptor: ContractDescriptor

    private init(descriptor: ContractDescriptor) {
        self.descriptor = descriptor
    }

    /// Every S contract, in catalogue order.
    public static let all: [ServerContract] = ContractCatalog.server.map(ServerContract.init(descriptor:))

    /// The contract with `id`, or `nil` when the catalogue has no such server contract.
    /// - Parameter id: An ID such as `"S2"`.
    public static func contract(_ id: ContractID) -> ServerContract? {
        all.first { $0.descriptor.id == id }
    }

    /// `S1 same key, same body`.
    public var description: String { descriptor.title }

    /// Whether the contract can run: S5 needs a way to restart the server.
    /// - Parameter canRestart: `true` when a restart closure will be given.
    package func applicability(canRestart: Bool) -> Applicability {
        guard descriptor.id == "S5", !canRestart else { return .applicable }
        return .notApplicable(
            reason: "S5 needs to restart the server, and no restart closure was given; durability was not checked")
    }

    /// Runs the contract against the server at `baseURL` and returns the report.
    ///
    /// - Parameters:
    ///   - baseURL: The server, such as `http://127.0.0.1:8081` (a URL ending in `/items` works too).
    ///   - profile: What the server's conflict answers mean: under ``ConflictProfile/ietfDraft``
    ///     a reused key with another body must get `422`, and `409` means "still being
    ///     processed"; under ``ConflictProfile/sourceDocument`` (the default) it must get `409`.
    ///   - restart: Restarts the server on the same storage and returns once it answers again;
    ///     without it S5 is not applicable.
    ///   - options: The watchdog limit (also each connection's timeout) and strictness.
    /// - Returns: The report: every exchange is a transcript step; a wrong answer is a violation.
    public func run(
        against baseURL: URL,
        profile: ConflictProfile = .sourceDocument,
        restart: (@Sendable () async throws -> Void)? = nil,
        options: RunOptions = RunOptions()
    ) async -> ContractReport {
        let subject = baseURL.absoluteString
        guard let endpoint = ServerEndpoint(baseURL: baseURL) else {
            return ContractReport(
                contract: descriptor, subject: subject,
                outcome: .failed([
                    Violation(
                        kind: .adapterError,
                        summary: "Expected an http:// base URL with a host, such as http://127.0.0.1:8081, "
                            + "but got \(subject).",
                        hint: "The kit's client speaks plain HTTP/1.1 only; put a TLS endpoint behind a local proxy.")
                ]))
        }
        let descriptor = descriptor
        return await ContractRun.execute(
            descriptor, subject: subject, applicability: applicability(canRestart: restart != nil),
            watchdog: options.watchdog
        ) { recorder in
            let probe = ServerProbe(
                client: HTTPClient(endpoint: endpoint, timeout: options.watchdog), recorder: recorder,
                contract: descriptor.id, profile: profile, baseURL: baseURL)
            recorder.record(
                "server \(subject), profile \(profile == .ietfDraft ? "IETF idempotency-key draft (422 on a body mismatch)" : "source document (409 on a body mismatch)")")
            switch descriptor.id {
            case "S1": try await ServerTimelines.sameKeySameBody(probe)
            case "S2": try await ServerTimelines.sameKeyDifferentBody(probe)
            case "S3": try await ServerTimelines.missingKeyOrBadBody(probe)
            case "S4": try await ServerTimelines.concurrentDuplicates(probe)
            case "S5":
                if let restart { try await ServerTimelines.durableRecords(probe, restart: restart) }
            default:
                recorder.note("No timeline is written for \(descriptor.id) yet.")
            }
        }
    }
}
