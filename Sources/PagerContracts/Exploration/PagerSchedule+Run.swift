import ConformanceKit

extension PagerSchedule {
    /// The descriptor a schedule's report names: the six pager invariants of the catalogue.
    public static let invariants = ContractDescriptor(
        id: "I1–I6", name: "exploration invariants",
        rule: ContractCatalog.invariants.prefix(6).map { "\($0.id) \($0.name)." }.joined(separator: " "))

    /// Replays this schedule against a fresh instance of `adapter` and checks the invariants
    /// I1–I6 after every step.
    ///
    /// The framework-free entry point: `ConformanceTesting`'s `check(_:)` records the report as
    /// issues; an XCTest user can call `XCTFail(report.fullText)`.
    /// - Parameters:
    ///   - adapter: The adapter type; the kit creates a fresh instance with `init()`.
    ///   - options: The watchdog limit.
    /// - Returns: Passed, or failed with the first invariant violation (its summary names the
    ///   invariant) and the transcript up to it.
    public func run<Adapter: PagerModelAdapter>(
        against adapter: Adapter.Type, options: RunOptions = RunOptions()
    ) async -> ContractReport {
        await ContractRun.execute(
            Self.invariants, subject: String(describing: Adapter.self), watchdog: options.watchdog
        ) { recorder in
            let execution = ScheduleExecution(driver: ModelPagerDriver<Adapter>(), recorder: recorder)
            await execution.start()
            recorder.record("start: query A ⇒ \(execution.state)")
            do {
                for step in steps {
                    recorder.setWaiting(for: "the pager to handle \(step.swiftCode)")
                    try await execution.apply(step)
                }
            } catch let failure as ScheduleExecution.Failure {
                var violation = failure.violation
                violation.step = violation.step.map { $0 + 1 }
                throw recorder.fail(violation)
            }
        }
    }

    /// The result of replaying a schedule without a transcript, as the search does.
    struct Replay {
        /// The failed invariant, if any.
        var failure: ScheduleExecution.Failure?
        /// The index of the failing step.
        var failingIndex: Int?
        /// Whether each step applied (`false`: skipped).
        var applied: [Bool]
        /// The numbers of the requests each step started.
        var started: [Range<Int>] = []
    }

    /// Replays `steps` against a fresh `adapter`, stopping at the first failure.
    static func replay<Adapter: PagerModelAdapter>(_ steps: [Step], against adapter: Adapter.Type) async -> Replay {
        let execution = ScheduleExecution(driver: ModelPagerDriver<Adapter>(), recorder: nil)
        await execution.start()
        var applied: [Bool] = []
        var started: [Range<Int>] = []
        for (index, step) in steps.enumerated() {
            let first = execution.requests.count + 1
            do {
                applied.append(try await execution.apply(step))
                started.append(first..<(execution.requests.count + 1))
            } catch let failure as ScheduleExecution.Failure {
                applied.append(true)
                started.append(first..<(execution.requests.count + 1))
                return Replay(failure: failure, failingIndex: index, applied: applied, started: started)
            } catch {
                applied.append(true)
                let failure = ScheduleExecution.Failure(
                    invariant: "adapter",
                    violation: Violation(
                        kind: .adapterError,
                        summary: "Expected the adapter to complete the step, but it threw \(error)."))
                return Replay(failure: failure, failingIndex: index, applied: applied)
            }
        }
        return Replay(failure: nil, failingIndex: nil, applied: applied, started: started)
    }
}
