import ConformanceKit

/// One pager rule from the catalogue with its scripted timeline, ready to run against any
/// adapter.
///
/// ```swift
/// @Test(arguments: PagerContract.all(for: MyPagerAdapter.self))
/// func myPagerConforms(_ contract: PagerContract) async {
///     await contract.check(MyPagerAdapter.self)
/// }
/// ```
public struct PagerContract: Hashable, Sendable, CustomStringConvertible {
    /// What a contract needs from an adapter.
    package struct Requirements: Hashable, Sendable {
        /// Only cursor pagination can express the contract.
        package var cursors = false
        /// The contract needs these triggers.
        package var triggers: PagerCapabilities.Triggers = []
        /// The contract delivers one response twice (a completion handler that runs twice).
        package var redelivery = false
        /// The contract is about an earlier query's answers: it needs a query change.
        package var queryChange = false
    }

    /// The catalogue entry: ID, name, rule, tier.
    public let descriptor: ContractDescriptor
    /// What the contract needs from an adapter.
    package let requirements: Requirements
    /// Set by ``all(for:)``: whether the contract applies to that adapter.
    public let applicability: Applicability?

    let timeline: @Sendable (PagerTimeline) async throws -> Void

    init(
        _ id: ContractID, requires requirements: Requirements = Requirements(),
        timeline: @escaping @Sendable (PagerTimeline) async throws -> Void
    ) {
        guard let descriptor = ContractCatalog.descriptor(id) else {
            preconditionFailure("\(id) is not in the contract catalogue")
        }
        self.descriptor = descriptor
        self.requirements = requirements
        self.applicability = nil
        self.timeline = timeline
    }

    private init(_ contract: PagerContract, applicability: Applicability) {
        self.descriptor = contract.descriptor
        self.requirements = contract.requirements
        self.applicability = applicability
        self.timeline = contract.timeline
    }

    /// The contract's ID, such as `P4`.
    public var id: ContractID { descriptor.id }

    /// `P4 late stale response`.
    public var description: String { descriptor.title }

    /// Whether an adapter with `capabilities` can run this contract at `level`, and if not, why.
    package func applicability(
        for capabilities: PagerCapabilities, level: IntegrationLevel = .model
    ) -> Applicability {
        if level == .async && !PriorityLadder.escalationAvailable {
            return .notApplicable(
                reason: "the async level needs task-priority escalation (Swift 6.2 or later and, "
                    + "on Apple platforms, OS 26 or later) to know when your code is waiting on a "
                    + "load; without it the kit does not guess. Use a model-level adapter here")
        }
        if requirements.redelivery && level == .async && capabilities.loader == .asyncAwait {
            return .notApplicable(
                reason: "an async/await load resumes exactly once, so a completion cannot run "
                    + "twice; declare loader: .completionHandler if your loads use callbacks")
        }
        if requirements.cursors && capabilities.pagination != .cursors {
            return .notApplicable(reason: "needs cursor pagination; the adapter uses page numbers")
        }
        if requirements.queryChange && !capabilities.changesQuery {
            return .notApplicable(
                reason: "needs a query change; the adapter declares none (changesQuery: false): "
                    + "a list with refresh only has no earlier query whose answers could arrive late")
        }
        if requirements.triggers.contains(.refresh) && !capabilities.triggers.contains(.refresh) {
            return .notApplicable(reason: "needs a refresh trigger; the adapter declares none")
        }
        if requirements.triggers.contains(.fillScreen)
            && !capabilities.triggers.contains(.fillScreen)
        {
            return .notApplicable(
                reason: "needs a fill-the-screen trigger; the adapter declares none")
        }
        return .applicable
    }

    public static func == (lhs: PagerContract, rhs: PagerContract) -> Bool {
        lhs.descriptor == rhs.descriptor && lhs.applicability == rhs.applicability
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(descriptor)
        hasher.combine(applicability)
    }

    /// Every contract, P1 to P13, each marked with whether it applies to `adapter`.
    ///
    /// Use it as the arguments of a parameterized test: a contract that does not apply is
    /// still listed, and checking it records a warning that names the reason, so it is never
    /// silently counted as passed.
    public static func all<Adapter: PagerModelAdapter>(for adapter: Adapter.Type)
        -> [PagerContract]
    {
        all.map { PagerContract($0, applicability: $0.applicability(for: Adapter.capabilities)) }
    }

    /// Every contract, P1 to P13, each marked with whether it applies to the async `adapter`.
    public static func all<Adapter: AsyncPagerAdapter>(for adapter: Adapter.Type)
        -> [PagerContract]
    {
        all.map {
            PagerContract(
                $0, applicability: $0.applicability(for: Adapter.capabilities, level: .async))
        }
    }
}
