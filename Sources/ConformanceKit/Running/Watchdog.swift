import Dispatch

/// The failure the watchdog produces when the subject never reaches what the kit waits for.
package struct WatchdogTimeout: Error, Sendable, CustomStringConvertible {
    /// How long the kit waited.
    package let limit: Duration
    /// What the kit was waiting for when the limit passed.
    package let waitingFor: String

    package var description: String {
        "Expected the subject to finish within the watchdog limit of \(limit), but it was still "
            + "running while the kit waited for \(waitingFor)."
    }
}

/// Runs `operation`, failing with ``WatchdogTimeout`` if it has not finished within `limit`.
///
/// The watchdog is the only place the kit reads real time, and it never decides an order: it
/// only turns a hung implementation into a named failure instead of a hung test run. The
/// operation keeps running after a timeout (a hung synchronous call cannot be stopped); its
/// late result is discarded.
///
/// - Parameters:
///   - limit: How long to wait.
///   - waitingFor: Describes what the kit is waiting for, read when the limit passes.
///   - operation: The work to watch.
/// - Returns: The operation's result.
/// - Throws: ``WatchdogTimeout``, or what `operation` throws.
package func withWatchdog<Result: Sendable>(
    limit: Duration,
    waitingFor: @escaping @Sendable () -> String,
    _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let race = WatchdogRace<Result>()
    return try await withCheckedThrowingContinuation { continuation in
        race.install(continuation)
        let task = Task {
            do {
                race.finish(.success(try await operation()))
            } catch {
                race.finish(.failure(error))
            }
        }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if race.finish(.failure(WatchdogTimeout(limit: limit, waitingFor: waitingFor()))) {
                task.cancel()
            }
        }
    }
}

/// Resumes a continuation exactly once: with the operation's result or the watchdog's.
private final class WatchdogRace<Result: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var pending: Swift.Result<Result, any Error>?
        var finished = false
    }

    private let state = Locked(rawValue: State())

    func install(_ continuation: CheckedContinuation<Result, any Error>) {
        let early: Swift.Result<Result, any Error>? = state.withLock { state in
            if let pending = state.pending { return pending }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Returns `true` if this call decided the race.
    @discardableResult
    func finish(_ result: Swift.Result<Result, any Error>) -> Bool {
        let winner: CheckedContinuation<Result, any Error>?? = state.withLock { state in
            guard !state.finished else { return .none }
            state.finished = true
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
