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
        await run(.model(Adapter.self), options: options)
    }

    /// Replays this schedule against `adapter` and, step by step, against `reference`: besides
    /// I1–I6, the visible list must equal the reference's for as long as both start the same
    /// requests (a differential check, reported under I3).
    /// - Parameters:
    ///   - adapter: The adapter under check.
    ///   - reference: A correct adapter with the same conforming variations, such as one over
    ///     the kit's reference `Pager`.
    ///   - options: The watchdog limit.
    public func run<Adapter: PagerModelAdapter, Reference: PagerModelAdapter>(
        against adapter: Adapter.Type, comparingWith reference: Reference.Type,
        options: RunOptions = RunOptions()
    ) async -> ContractReport {
        await run(.model(Adapter.self, comparingWith: Reference.self), options: options)
    }

    func run(_ subject: ExplorationSubject, options: RunOptions) async -> ContractReport {
        await ContractRun.execute(Self.invariants, subject: subject.name, watchdog: options.watchdog) { recorder in
            let execution = await ScheduleExecution.make(subject, recorder: recorder)
            await execution.start()
            recorder.record("start: query A ⇒ \(execution.state)")
            do {
                for step in steps {
                    recorder.setWaiting(for: "the pager to handle \(step.swiftCode)")
                    try await execution.apply(step)
                }
            } catch let failure as ScheduleExecution.Failure {
                await execution.finish()
                var violation = failure.violation
                violation.step = violation.step.map { $0 + 1 }
                throw recorder.fail(violation)
            } catch {
                await execution.finish()
                throw error
            }
            await execution.finish()
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

    /// Replays `steps` against a fresh subject, stopping at the first failure.
    static func replay(_ steps: [Step], against subject: ExplorationSubject) async -> Replay {
        let execution = await ScheduleExecution.make(subject)
        await execution.start()
        var replay = Replay(failure: nil, failingIndex: nil, applied: [])
        for (index, step) in steps.enumerated() {
            let first = execution.requests.count + 1
            do {
                replay.applied.append(try await execution.apply(step))
                replay.started.append(first..<(execution.requests.count + 1))
            } catch {
                replay.applied.append(true)
                replay.started.append(first..<(execution.requests.count + 1))
                replay.failure = ScheduleExecution.Failure(error)
                replay.failingIndex = index
                break
            }
        }
        await execution.finish()
        return replay
    }
}
