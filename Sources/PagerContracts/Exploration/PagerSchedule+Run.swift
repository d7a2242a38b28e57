import ConformanceKit

extension PagerSchedule {
    /// The descriptor a schedule's report names: the six pager invariants of the catalogue.
    package static let invariants = ContractDescriptor(
        id: "I1–I6", name: "exploration invariants",
        rule: ContractCatalog.invariants.prefix(6).map { "\($0.id) \($0.name)." }.joined(separator: " "))

    /// Replays this schedule against a fresh instance of `adapter`, checks the invariants
    /// I1–I6 after every step, and ends with the liveness check: every open request answered,
    /// the loading state must have ended and a trigger must still start a request.
    ///
    /// The framework-free entry point: `ConformanceTesting`'s `check(_:)` records the report as
    /// issues; an XCTest user can call `XCTFail(report.fullText)`.
    /// - Parameters:
    ///   - adapter: The adapter type; the kit creates a fresh instance with `init()`.
    ///   - options: The watchdog limit.
    /// - Returns: Passed, or failed with the first invariant violation and the transcript up
    ///   to it, named by the contract whose rule it broke (its summary names the invariant).
    public func run<Adapter: PagerModelAdapter>(
        against adapter: Adapter.Type, options: RunOptions = RunOptions()
    ) async -> ContractReport {
        // A replay runs one schedule: the generic build of the driver is fast enough.
        await run(.model(Adapter.self, driverFactory: ModelPagerDriver.factory(Adapter.self)), options: options)
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
        await run(
            .model(
                Adapter.self, driverFactory: ModelPagerDriver.factory(Adapter.self),
                comparingWith: Reference.self, referenceDriverFactory: ModelPagerDriver.factory(Reference.self)),
            options: options)
    }

    /// Replays this schedule against a fresh subject made by the async `adapter`, once per
    /// delivery mode, checks the invariants I1–I6 after every step and liveness at the end
    /// (except under `alreadyAvailable`, whose answers come from a recorded plan), and returns the first
    /// failing run's report (or a pass).
    ///
    /// Under `alreadyAvailable` delivery, every answer the schedule gives right after the step
    /// that made its request is handed over the moment the load starts (learned from an
    /// `immediate` replay of the same steps), and the state is checked after that answer step.
    /// - Parameters:
    ///   - adapter: The adapter type; the kit creates a fresh subject per run.
    ///   - options: The watchdog limit.
    ///   - modes: The delivery modes to replay under; all of them by default.
    /// - Returns: Passed, or failed with the first invariant violation and the transcript up
    ///   to it; the subject named in the report says the mode.
    public func run<Adapter: AsyncPagerAdapter>(
        against adapter: Adapter.Type, options: RunOptions = RunOptions(),
        modes: [DeliveryMode] = DeliveryMode.allCases
    ) async -> ContractReport {
        let subject = ExplorationSubject.async(Adapter.self)
        var last: ContractReport?
        for mode in modes {
            let report = await run(subject, mode: mode, options: options)
            guard case .passed = report.outcome else { return report }
            last = report
        }
        return ContractReport(
            contract: Self.invariants, subject: subject.name, outcome: .passed,
            transcript: last?.transcript ?? Transcript(), notes: last?.notes ?? [])
    }

    func run(_ subject: ExplorationSubject, mode: DeliveryMode? = nil, options: RunOptions) async -> ContractReport {
        let name = mode.map { "\(subject.name) (\($0))" } ?? subject.name
        let broken = Locked<ContractID?>(rawValue: nil)
        let report = await ContractRun.execute(Self.invariants, subject: name, watchdog: options.watchdog) { recorder in
            let plan =
                mode == .alreadyAvailable
                ? await Self.recordPlan(steps, against: subject, waits: recorder) : AnswerPlan()
            let execution = await ScheduleExecution.make(subject, mode: mode, plan: plan, recorder: recorder)
            await execution.start()
            let atInit = execution.requestsAtInit.isEmpty ? "" : " → " + execution.requestsAtInit
            recorder.record("start: query A\(atInit) ⇒ \(execution.state)")
            do {
                for step in steps {
                    recorder.setWaiting(for: "the pager to handle \(step.swiftCode)")
                    try await execution.apply(step)
                }
                if mode != .alreadyAvailable {
                    recorder.setWaiting(for: "the liveness check at the end of the schedule")
                    try await execution.checkLiveness()
                }
            } catch let failure as ScheduleExecution.Failure {
                broken.withLock { $0 = failure.invariant }
                await execution.finish()
                var violation = failure.violation
                violation.step = violation.step.map { $0 + 1 }
                throw recorder.fail(violation)
            } catch let notApplicable as ScheduleExecution.NotApplicable {
                recorder.note("The schedule ended early: \(notApplicable.reason).")
            } catch {
                await execution.finish()
                throw error
            }
            await execution.finish()
        }
        // Named by the contract whose rule broke (its rule text, not the list of invariants).
        guard let id = broken.rawValue, let descriptor = ContractCatalog.descriptor(id) else { return report }
        return report.named(descriptor)
    }

    /// The answers an `immediate` replay of `steps` gives right after the step that made each
    /// request: what an `alreadyAvailable` replay hands over at registration. The replay goes
    /// on past a failing step, so the plan covers every step.
    static func recordPlan(
        _ steps: [Step], against subject: ExplorationSubject, waits: TimelineRecorder? = nil
    ) async -> AnswerPlan {
        let plan = AnswerPlan()
        var execution = await ScheduleExecution.make(subject, mode: .immediate, plan: plan, waits: waits)
        await execution.start()
        var taken: [ScheduleExecution.TakenStep] = []
        for (index, step) in steps.enumerated() {
            waits?.setWaiting(for: "the pager to handle step \(index + 1), \(step.swiftCode) (immediate, recording the answers to hand over)")
            do {
                taken.append((step, try await execution.apply(step) ? .applied : .skipped))
            } catch let unobserved as ScheduleExecution.NotApplicable where unobserved.byAssumption {
                guard
                    let fresh = await ScheduleExecution.restart(
                        after: execution, subject: subject, mode: .immediate, plan: plan, waits: waits, replaying: taken)
                else { break }
                execution = fresh
                taken.append((step, .unobserved))
            } catch {
                taken.append((step, .applied))
            }
        }
        await execution.finish()
        return plan
    }

    /// The result of replaying a schedule without a transcript, as the search does.
    struct Replay: Sendable {
        /// The failed invariant, if any.
        var failure: ScheduleExecution.Failure?
        /// The index of the failing step.
        var failingIndex: Int?
        /// Whether each step applied (`false`: skipped).
        var applied: [Bool]
        /// The numbers of the requests each step started.
        var started: [Range<Int>] = []
        /// The steps run, in order (a step the provider left out is not among them).
        var steps: [Step] = []
        /// Why the schedule ended early without a finding (it does not apply under the mode).
        var notApplicable: String?
        /// Triggers skipped because the kit could not have settled them by evidence.
        var unobservableTriggers = SkippedTriggers()
    }

    /// Replays `steps` against a fresh subject, stopping at the first failure.
    /// - Parameters:
    ///   - mode: The delivery mode (async level).
    ///   - plan: For `alreadyAvailable`, the answers to hand over at registration; recorded
    ///     from an `immediate` replay when not given.
    ///   - waits: Where to say what the replay waits for, for a watchdog.
    static func replay(
        _ steps: [Step], against subject: ExplorationSubject, mode: DeliveryMode? = nil,
        plan: AnswerPlan? = nil, waits: TimelineRecorder? = nil
    ) async -> Replay {
        var answers = plan ?? AnswerPlan()
        if plan == nil, mode == .alreadyAvailable {
            answers = await recordPlan(steps, against: subject, waits: waits)
        }
        return await replay(steps.count, against: subject, mode: mode, plan: answers, waits: waits) { index, _ in
            steps[index]
        }
    }

    /// Replays `count` steps against a fresh subject, each chosen by `step` from the requests
    /// the steps before it started (`nil`: left out, as not applied).
    /// - Parameters:
    ///   - mode: The delivery mode (async level).
    ///   - plan: For `alreadyAvailable`, the answers to hand over at registration.
    ///   - waits: Where to say what the replay waits for, for a watchdog.
    ///   - throughFailures: Go on past a failing step (the first failure is still reported)
    ///     and leave out the liveness check: a run that only resolves which request each step
    ///     answers.
    ///   - step: The step at an index, given the request numbers each earlier step started.
    static func replay(
        _ count: Int, against subject: ExplorationSubject, mode: DeliveryMode?, plan: AnswerPlan = AnswerPlan(),
        waits: TimelineRecorder? = nil, throughFailures: Bool = false,
        step: (_ index: Int, _ started: [Range<Int>]) -> Step?
    ) async -> Replay {
        var execution = await ScheduleExecution.make(subject, mode: mode, plan: plan, waits: waits)
        await execution.start()
        var replay = Replay(failure: nil, failingIndex: nil, applied: [])
        var taken: [ScheduleExecution.TakenStep] = []
        for index in 0..<count {
            let first = execution.requests.count + 1
            guard let step = step(index, replay.started) else {
                replay.applied.append(false)
                replay.started.append(first..<first)
                continue
            }
            replay.steps.append(step)
            waits?.setWaiting(for: "the pager to handle step \(index + 1), \(step.swiftCode) (\(mode.map { "\($0)" } ?? "model"), replay)")
            do {
                let applied = try await execution.apply(step)
                taken.append((step, applied ? .applied : .skipped))
                replay.applied.append(applied)
                replay.started.append(first..<(execution.requests.count + 1))
            } catch let unobserved as ScheduleExecution.NotApplicable
                where unobserved.byAssumption && replay.failure == nil
            {
                // Settled by assumption: on without that trigger, as the search went on.
                guard
                    let fresh = await ScheduleExecution.restart(
                        after: execution, subject: subject, mode: mode, plan: plan, waits: waits, replaying: taken)
                else {
                    replay.notApplicable = unobserved.reason
                    break
                }
                execution = fresh
                taken.append((step, .unobserved))
                replay.applied.append(false)
                replay.started.append(first..<first)
            } catch let notApplicable as ScheduleExecution.NotApplicable {
                replay.notApplicable = notApplicable.reason
                break
            } catch {
                taken.append((step, .applied))
                replay.applied.append(true)
                replay.started.append(first..<(execution.requests.count + 1))
                if replay.failure == nil {
                    replay.failure = ScheduleExecution.Failure(error)
                    replay.failingIndex = index
                }
                if !throughFailures { break }
            }
        }
        if replay.failure == nil, replay.notApplicable == nil, mode != .alreadyAvailable, !throughFailures {
            waits?.setWaiting(for: "the liveness check at the end of the schedule (\(mode.map { "\($0)" } ?? "model"), replay)")
            do {
                try await execution.checkLiveness()
            } catch let notApplicable as ScheduleExecution.NotApplicable {
                replay.notApplicable = notApplicable.reason
            } catch {
                replay.failure = ScheduleExecution.Failure(error)
                replay.failingIndex = count == 0 ? nil : count - 1
            }
        }
        await execution.finish()
        replay.unobservableTriggers = execution.unobservableTriggers
        return replay
    }
}
