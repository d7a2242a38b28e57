import ConformanceKit
import PagerContracts
import Testing

extension PagerContract: CustomTestStringConvertible {
    /// `P4 late stale response`, or for a contract that does not apply,
    /// `P9 cursor carried by the ticket (not applicable: …)`.
    public var testDescription: String {
        if let reason = applicability?.reason {
            return "\(descriptor.title) (not applicable: \(reason))"
        }
        return descriptor.title
    }
}

extension PagerContract {
    /// Runs this contract against `adapter` and records any violation as an issue at the
    /// caller's line, with the transcript attached.
    ///
    /// ```swift
    /// @Test(arguments: PagerContract.all(for: MyPagerAdapter.self))
    /// func myPagerConforms(_ contract: PagerContract) async {
    ///     await contract.check(MyPagerAdapter.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: Your adapter type; the kit creates a fresh instance per contract.
    ///   - options: The watchdog limit; `strict: true` makes recommended rules (P10's cycle
    ///     check, P12, P13) errors instead of warnings.
    ///   - sourceLocation: Where failures point; leave the default.
    public func check<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: adapter, options: options)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}

extension PagerContract {
    /// Runs this contract against real async code through `adapter`, under every delivery
    /// mode, and records any violation as an issue at the caller's line.
    ///
    /// ```swift
    /// @Test(arguments: PagerContract.all(for: FeedViewModelAdapter.self))
    /// func feedViewModelConforms(_ contract: PagerContract) async {
    ///     await contract.check(FeedViewModelAdapter.self)
    /// }
    /// ```
    public func check<Adapter: AsyncPagerAdapter>(
        _ adapter: Adapter.Type, options: RunOptions = RunOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let report = await run(against: adapter, options: options)
        ConformanceReporting.record(report, options: options, sourceLocation: sourceLocation)
    }
}
