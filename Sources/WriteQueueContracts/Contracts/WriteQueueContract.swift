import ConformanceKit

/// One write-queue rule (Q1–Q12) with its scripted timeline, written once and run against any
/// ``WriteQueueAdapter``.
///
/// ```swift
/// @Test(arguments: WriteQueueContract.all(for: OutboxAdapter.self))
/// func outboxConforms(_ contract: WriteQueueContract) async {
///     await contract.check(OutboxAdapter.self)
/// }
/// ```
///
/// Each contract is a fixed timeline: the kit decides when triggers start, which request is
/// answered how, when the clock moves and where the app crashes. A failure reads like a bug
/// report:
///
/// ```text
/// Q3 replay after crash: Expected the relaunched queue to resend op-1 with the key chosen at
/// submit, but send #3 carried key 9c0e41d2-7….
///   Expected key 3f2a9c1e-0b7d-4e1f-9a33-5d2c8e7b6a10
///   Actual   key 9c0e41d2-7b5e-4c8a-8d0f-1e2a3b4c5d6e
///   Timeline (up to the failing step):
///       1. launch queue from fresh storage
///       2. submit op-1 body {"title":"Ticket 1"} → task key 3f2a9c1e-0… persisted (pending)
///       …
///       7. crash (drop instance, no shutdown)
///       8. relaunch from storage
///     ▶ 10. send #3 op-1 key=9c0e41d2-7… parked (sending pass #2)
///   Hint: Persist the key with the task at submit and read it back after a relaunch.
/// ```
public struct WriteQueueContract: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The catalogue entry: ID, name, rule and tier.
    public let descriptor: ContractDescriptor
    /// Set by ``all(for:)``: whether the contract applies to that adapter.
    public let applicability: Applicability?

    private init(_ descriptor: ContractDescriptor, applicability: Applicability? = nil) {
        self.descriptor = descriptor
        self.applicability = applicability
    }

    /// The stable ID, such as `Q3`.
    public var id: ContractID { descriptor.id }

    /// `Q3 replay after crash`.
    public var description: String { descriptor.title }

    /// Every write-queue contract, Q1 to Q12, in catalogue order.
    public static let all: [WriteQueueContract] = ContractCatalog.writeQueue.map { WriteQueueContract($0) }

    /// The contract with `id`, or `nil` when the catalogue has no such write-queue contract.
    /// - Parameter id: An ID such as `"Q3"`.
    public static func contract(_ id: ContractID) -> WriteQueueContract? {
        all.first { $0.id == id }
    }

    /// Every contract, Q1 to Q12, each marked with whether it applies to `adapter`.
    ///
    /// Use it as the arguments of a parameterized test: a contract that does not apply is
    /// still listed, and checking it records a warning that names the reason, so it is never
    /// silently counted as passed.
    public static func all<A: WriteQueueAdapter>(for adapter: A.Type) -> [WriteQueueContract] {
        all.map { WriteQueueContract($0.descriptor, applicability: $0.applicability(for: A.capabilities)) }
    }

    /// Whether this contract can run against a queue with `capabilities`.
    package func applicability(for capabilities: QueueCapabilities) -> Applicability {
        switch id {
        case "Q8" where !capabilities.backoff.backsOff:
            .notApplicable(
                reason: "the adapter declares that its queue does not back off before a retry "
                    + "(QueueCapabilities.backoff is .none); declare .capped(at:) or .uncapped")
        case "Q10" where !capabilities.exposesDiagnostics:
            .notApplicable(
                reason: "the adapter exposes no diagnostics or log lines "
                    + "(QueueCapabilities.exposesDiagnostics)")
        default:
            .applicable
        }
    }

    /// Runs the contract's timeline against `adapter` and returns the report.
    ///
    /// - Parameters:
    ///   - adapter: The adapter type.
    ///   - options: The watchdog limit and strictness.
    /// - Returns: Passed, failed with violations (contract, adapter error or watchdog), or not
    ///   applicable with the reason.
    public func run<A: WriteQueueAdapter>(against adapter: A.Type, options: RunOptions = RunOptions())
        async -> ContractReport
    {
        let contract = self
        return await ContractRun.execute(
            descriptor, subject: String(describing: A.self),
            applicability: applicability(for: A.capabilities), watchdog: options.watchdog
        ) { recorder in
            let harness = try QueueHarness<A>(recorder: recorder)
            do {
                try await contract.timeline(harness)
            } catch {
                await harness.finish()
                throw error
            }
            await harness.finish()
        }
    }

    private func timeline<A: WriteQueueAdapter>(_ harness: QueueHarness<A>) async throws {
        switch id {
        case "Q1": try await Self.persistBeforeSend(harness)
        case "Q2": try await Self.unknownOutcomeKeepsTask(harness)
        case "Q3": try await Self.replayAfterCrash(harness)
        case "Q4": try await Self.conflictStops(harness)
        case "Q5": try await Self.successOnlyCompletion(harness)
        case "Q6": try await Self.newActionNewKey(harness)
        case "Q7": try await Self.singleSender(harness)
        case "Q8": try await Self.cappedBackoff(harness)
        case "Q9": try await Self.clientErrorsByContract(harness)
        case "Q10": try await Self.noSensitiveDiagnostics(harness)
        case "Q11": try await Self.restoreNeverDisplaces(harness)
        case "Q12": try await Self.coalescingKeepsLatestBody(harness)
        default: preconditionFailure("no timeline for \(id)")
        }
    }

    public static func == (lhs: WriteQueueContract, rhs: WriteQueueContract) -> Bool {
        lhs.descriptor == rhs.descriptor && lhs.applicability == rhs.applicability
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(descriptor)
        hasher.combine(applicability)
    }
}
