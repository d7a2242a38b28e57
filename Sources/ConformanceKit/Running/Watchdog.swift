import Dispatch

/// The failure the watchdog produces when the subject never reaches what the kit waits for.
package struct WatchdogTimeout: Error, Sendable, CustomStringConvertible {
    /// How long the kit waited.
    package let limit: Duration
    /// What the kit was waiting for when the limit passed.
    package let waitingFor: String
    /// What passed the limit.
    package var kind: Kind = .whole

    /// What passed the watchdog's limit.
    package enum Kind: Sendable, Equatable {
        /// The whole run took longer than the limit (no progress count was given).
        case whole
        /// The run moved on, then made no progress for a whole limit.
        case stalled
        /// The run kept moving, but for longer than `limits` limits in all.
        case endless(limits: Int)
    }

    package var description: String {
        switch kind {
        case .whole:
            "Expected the subject to finish within the watchdog limit of \(limit), but it was still "
                + "running while the kit waited for \(waitingFor)."
        case .stalled:
            "Expected the subject to move on within the watchdog limit of \(limit), but nothing "
                + "moved for that long while the kit waited for \(waitingFor)."
        case .endless(let limits):
            "Expected the subject to finish within \(limits) watchdog limits of \(limit), but it was "
                + "still moving on while the kit waited for \(waitingFor)."
        }
    }
}

/// Runs `operation`, failing with ``WatchdogTimeout`` if it has not finished within `limit`,
/// or, given `progress`, if `limit` passes with no progress.
///
/// The watchdog is the only place the kit reads real time, and it never decides an order: it
/// only turns a hung implementation into a named failure instead of a hung test run. The
/// operation keeps running after a timeout (a hung synchronous call cannot be stopped); its
/// late result is discarded.
///
/// With `progress` (a count that grows whenever the timeline moves on: a step, a wait), the
/// limit is for a stall, not for the whole timeline: a long timeline on a loaded machine is not
/// a hang (`ScanUploadQueue`'s Q4 takes 9 s alone, and crossed a 30 s limit beside two other
/// heavy processes). A timeline is bounded in steps, so a subject that keeps it moving ends it;
/// to be sure, the watchdog gives up after `maximumLimits` limits all the same.
///
/// - Parameters:
///   - limit: How long to wait (with `progress`: without progress).
///   - waitingFor: Describes what the kit is waiting for, read when the limit passes.
///   - progress: Reads the timeline's progress count, or `nil` for a limit on the whole run.
///   - operation: The work to watch.
/// - Returns: The operation's result.
/// - Throws: ``WatchdogTimeout``, or what `operation` throws.
package func withWatchdog<Result: Sendable>(
    limit: Duration,
    waitingFor: @escaping @Sendable () -> String,
    progress: (@Sendable () -> Int)? = nil,
    _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let race = WatchdogRace<Result>(waitingFor: waitingFor, progress: progress)
    return try await withCheckedThrowingContinuation { continuation in
        race.install(continuation)
        race.watch(
            Task {
                do {
                    race.finish(.success(try await operation()))
                } catch {
                    race.finish(.failure(error))
                }
            })
        // With progress, the limit is watched in quarters: it fires once four quarters in a row
        // saw no progress (a stall of one to one and a quarter limits).
        let quarters = progress == nil ? 1 : quartersPerLimit
        let (seconds, attoseconds) = (limit / quarters).components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        // The timer holds the race alone: once the operation finished, the race has let go of
        // the task and the closures (and what they hold, a whole schedule's subject) while the
        // timer still waits for its deadline.
        @Sendable func arm(seen: Int?, still: Int, total: Int) {
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                guard let watched = race.watched else { return }
                let now = watched.progress?()
                let still = now == seen ? still + 1 : 0
                if still < quarters, total < quarters * maximumLimits {
                    return arm(seen: now, still: still, total: total + 1)
                }
                let kind: WatchdogTimeout.Kind =
                    if still < quarters { .endless(limits: maximumLimits) } else if total >= quarters { .stalled } else { .whole }
                let timeout = WatchdogTimeout(limit: limit, waitingFor: watched.waitingFor(), kind: kind)
                if race.finish(.failure(timeout)) {
                    watched.task?.cancel()
                }
            }
        }
        arm(seen: progress?(), still: 0, total: 0)
    }
}

/// How many parts a progress-aware watchdog reads progress in per limit.
private let quartersPerLimit = 4

/// How many limits a progress-aware watchdog lets pass in all while the timeline moves on.
private let maximumLimits = 8

/// Resumes a continuation exactly once: with the operation's result or the watchdog's.
private final class WatchdogRace<Result: Sendable>: Sendable {
    /// What the timer reads while the operation runs.
    struct Watched: Sendable {
        let waitingFor: @Sendable () -> String
        let progress: (@Sendable () -> Int)?
        var task: Task<Void, Never>?
    }

    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var pending: Swift.Result<Result, any Error>?
        /// `nil` once the race is finished.
        var watched: Watched?
    }

    private let state: Locked<State>

    init(waitingFor: @escaping @Sendable () -> String, progress: (@Sendable () -> Int)?) {
        state = Locked(rawValue: State(watched: Watched(waitingFor: waitingFor, progress: progress)))
    }

    func install(_ continuation: CheckedContinuation<Result, any Error>) {
        let early: Swift.Result<Result, any Error>? = state.withLock { state in
            if let pending = state.pending { return pending }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Keeps the operation's task, to cancel it on a timeout (unless the race already ended).
    func watch(_ task: Task<Void, Never>) {
        state.withLock { state in state.watched?.task = task }
    }

    /// What the timer reads, or `nil` once the race is finished.
    var watched: Watched? { state.withLock { $0.watched } }

    /// Returns `true` if this call decided the race.
    @discardableResult
    func finish(_ result: Swift.Result<Result, any Error>) -> Bool {
        let winner: CheckedContinuation<Result, any Error>?? = state.withLock { state in
            guard state.watched != nil else { return .none }
            state.watched = nil
            guard let continuation = state.continuation else {
                state.pending = result
                return .some(nil)
            }
            state.continuation = nil
            return .some(continuation)
        }
        switch winner {
        case .none: return false
        case .some(let continuation):
            continuation?.resume(with: result)
            return true
        }
    }
}
