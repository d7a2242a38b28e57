import ConformanceKit

/// Pagers as the shared explorer drives them: random trials and exhaustive prefixes on a fresh
/// subject, each async one under a delivery mode and inside the watchdog, and the pager's
/// shrinker.
struct PagerScheduleFamily: ScheduleFamily {
    let subject: ExplorationSubject

    var subjectName: String { subject.name }
    var blockSize: Int { 16 }

    /// Async subjects: every delivery mode a fixed schedule can use on its own (answers handed
    /// over at registration need a recorded plan, which only random trials make).
    var exhaustiveContexts: [DeliveryMode?] {
        subject.modes.isEmpty ? [nil] : subject.modes.filter { $0 != .alreadyAvailable }
    }

    func describe(_ steps: [PagerSchedule.Step], context mode: DeliveryMode?) -> String {
        "[" + steps.map(\.swiftCode).joined(separator: ", ") + "]" + (mode.map { " (\($0))" } ?? "")
    }

    func trial(_ index: Int, seed: UInt64, options: ExplorationOptions) async -> ScheduleTrial.Outcome {
        await ScheduleTrial(subject: subject, index: index, maxSteps: options.maxSteps, watchdog: options.watchdog)
            .run(seed: seed)
    }

    /// Runs one prefix of the exhaustive search on a fresh subject; at the async level inside
    /// the watchdog, so a hang is a finding that says what the kit waited for, never a hung
    /// search.
    func visit(
        _ prefix: [PagerSchedule.Step], context mode: DeliveryMode?, depth: Int, options: ExplorationOptions
    ) async -> DeepeningSearch<PagerSchedule.Step, ScheduleFailure>.Visit {
        typealias Visit = DeepeningSearch<PagerSchedule.Step, ScheduleFailure>.Visit
        let subject = self.subject
        let waits = TimelineRecorder(tier: .required)
        let body: @Sendable () async -> Visit = {
            let execution = await ScheduleExecution.make(subject, mode: mode, waits: mode == nil ? nil : waits)
            await execution.start()
            for step in prefix {
                do {
                    try await execution.apply(step)
                } catch is ScheduleExecution.NotApplicable {
                    await execution.finish()
                    return Self.unobservedLeaf(prefix)
                } catch {
                    await execution.finish()
                    return Visit(failure: ScheduleExecution.Failure(error).key)
                }
            }
            let fingerprint = execution.fingerprint
            let next = prefix.count < depth ? ScheduleGenerator.alphabet(for: execution) : []
            // Every state the search reaches is also judged for liveness, as a random
            // schedule's end is: answer what is open, then a trigger must still work. It runs
            // after the fingerprint and the alphabet were read, so it changes neither.
            if mode != .alreadyAvailable {
                waits.setWaiting(for: "the liveness check after an exhaustive prefix of \(prefix.count) steps")
                do {
                    try await execution.checkLiveness()
                } catch is ScheduleExecution.NotApplicable {
                    await execution.finish()
                    return Visit(fingerprint: fingerprint, next: next)
                } catch {
                    await execution.finish()
                    return Visit(failure: ScheduleExecution.Failure(error).key)
                }
            }
            await execution.finish()
            return Visit(fingerprint: fingerprint, next: next)
        }
        guard mode != nil else { return await body() }
        do {
            return try await withWatchdog(limit: options.watchdog, waitingFor: { waits.currentWait }, body)
        } catch {
            return Visit(failure: .hang)
        }
    }

    /// A prefix that ended on a step settled by assumption: a leaf, judged up to that step,
    /// whose fingerprint is the prefix's own, so that it never prunes a state reached by
    /// evidence.
    private static func unobservedLeaf(_ prefix: [PagerSchedule.Step])
        -> DeepeningSearch<PagerSchedule.Step, ScheduleFailure>.Visit
    {
        var hasher = Hasher()
        hasher.combine("settled by assumption")
        hasher.combine(prefix)
        return .init(fingerprint: hasher.finalize())
    }

    // MARK: - Shrinking and the report

    func finding(for hit: PagerExploration.Hit, provenance: String, options: ExplorationOptions) async
        -> ExplorationFinding
    {
        var steps = hit.steps
        let mode = hit.context
        let hung = hit.failure == .hang
        if options.shrink && !hung, let found = await watchedReplay(steps, mode: mode, options: options) {
            // Fewest steps, then the simplest values, over steps that name each answer's request
            // by the step that started it: dropping a trigger drops the answers to its requests,
            // and dropping anything else keeps every answer on its request.
            let shrunk = await ScheduleShrinker.shrink(PagerShrinkStep.steps(of: found), simpler: PagerShrinkStep.simpler) {
                candidate in
                await watched(mode, options) { await PagerShrinkStep.replay(candidate, against: subject, mode: mode) }?
                    .failure?.key == hit.failure
            }.steps
            // Kept only if its concrete steps, replayed as printed, fail the same way.
            if let concrete = await watched(mode, options, { await PagerShrinkStep.replay(shrunk, against: subject, mode: mode) })?.steps,
                await watchedReplay(concrete, mode: mode, options: options)?.failure?.key == hit.failure
            {
                steps = concrete
            }
        }
        // Drop the steps that were skipped (they changed nothing) and anything after the failure.
        if !hung, let replay = await watchedReplay(steps, mode: mode, options: options) {
            let end = replay.failingIndex.map { $0 + 1 } ?? steps.count
            let trimmed = zip(steps.prefix(end), replay.applied).filter(\.1).map(\.0)
            // A step skipped under one delivery mode may still shape the `immediate` replay
            // that plans the answers of `alreadyAvailable`: keep it unless the trimmed
            // schedule fails the same way.
            if mode == nil || trimmed.count == steps.count {
                steps = trimmed
            } else if await watchedReplay(trimmed, mode: mode, options: options)?.failure?.key == hit.failure {
                steps = trimmed
            }
        }
        let schedule = PagerSchedule(steps)
        let report = await schedule.run(subject, mode: mode, options: RunOptions(watchdog: options.watchdog))
        let violation = report.outcome.violations.first
        // The contract as the shrunk schedule names it (a finding keyed by its invariant, I1,
        // is named by what caused it there).
        let contract = hung ? nil : await watchedReplay(steps, mode: mode, options: options)?.failure?.invariant
        let kind = ExplorationFinding.Kind(hit.failure, contract: contract)
        let invariant = kind.descriptor
        var provenance = provenance
        if let mode { provenance += ", \(mode)" }
        let tier = violation?.tier ?? .required
        return ExplorationFinding(
            kind: kind, invariant: invariant, tier: tier, report: report,
            originalSteps: hit.steps.count, shrunkSteps: steps.count,
            scheduleLiteral: schedule.swiftLiteral(indent: ""),
            regressionTest: schedule.regressionTest(
                typeName: subject.typeName, reference: subject.reference?.name, module: subject.module,
                invariant: invariant,
                provenance: provenance, originalSteps: hit.steps.count,
                strictTier: options.strict ? tier : nil, appearsFirst: subject.appearsFirst))
    }

    /// A replay for shrinking; at the async level inside the watchdog (`nil`: it hung, so it
    /// does not count as failing the same way).
    private func watchedReplay(_ steps: [PagerSchedule.Step], mode: DeliveryMode?, options: ExplorationOptions) async
        -> PagerSchedule.Replay?
    {
        let subject = self.subject
        return await watched(mode, options) { await PagerSchedule.replay(steps, against: subject, mode: mode) }
    }

    /// `replay` run directly at the model level, inside the watchdog at the async level.
    private func watched(
        _ mode: DeliveryMode?, _ options: ExplorationOptions,
        _ replay: @escaping @Sendable () async -> PagerSchedule.Replay
    ) async -> PagerSchedule.Replay? {
        guard mode != nil else { return await replay() }
        return try? await withWatchdog(limit: options.watchdog, waitingFor: { "a replay while shrinking" }, replay)
    }
}
