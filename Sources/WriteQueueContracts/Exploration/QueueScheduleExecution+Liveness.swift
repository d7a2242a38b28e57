import ConformanceKit
import Foundation

extension QueueScheduleExecution {
    /// Liveness at the schedule's bounded end: what should happen eventually does.
    ///
    /// Once the schedule's steps ran, the kit lets time pass the way a user's day would: it
    /// answers every open request with success, moves the clock to every wait, and when nothing
    /// runs starts a sending pass, moving the clock past the longest backoff (and twice the
    /// request timeout, so a storage lease left by a crash has expired) when a pass sends
    /// nothing. Then every task whose request was in flight when the app crashed, and that storage
    /// still holds as pending, must have been sent again after the relaunch: Q3's rule (replay
    /// after crash). A row left "sending" by the crash and never picked again is the bug this
    /// finds; nothing else is judged here.
    func checkLiveness() async throws {
        guard !inFlightAtCrash.isEmpty else { return }
        let h = harness
        let horizon = max((capabilities.backoffCap ?? .seconds(16)) * 2, capabilities.requestTimeout * 2)
        h.recorder.record("liveness: answer everything, run passes and let time pass")
        var idlePasses = 0
        var busyMoves = 0
        for _ in 0..<64 {
            try await h.settle()
            if let send = h.openSends.first {
                h.answer(send, .serve)
                idlePasses = 0
                continue
            }
            if !h.running.isEmpty {
                if try await h.advanceToNextWakeOneByOne() { continue }
                // Passes still run but no live wait ends: they joined work of the queue's own (a
                // tick loop, a retry timer), whose waits the clock holds and the kit plays as
                // passes only when time passes. Let it pass, as for an idle queue; stopping here
                // left a task that was due later unsent (a false Q3 on `TickerOutbox`, seed 2).
                guard busyMoves < 3 else { break }
                busyMoves += 1
                try h.advanceClock(by: horizon, recording: "advance clock by \(ManualClock.format(horizon)) (passes wait on the queue's own work)")
                continue
            }
            // Nothing runs that the kit can see: let what it cannot see run out (a drain in an
            // unstructured task whose next hop is still queued) before a pass or a clock move.
            if try await h.letUnseenWorkRunOut() { continue }
            guard try await !owedResends().isEmpty, idlePasses < 3 else { break }
            if idlePasses > 0 {
                try h.advanceClock(by: horizon, recording: "advance clock by \(ManualClock.format(horizon)) (a later sync)")
            }
            idlePasses += 1
            try h.startPass()
        }
        try await h.settle()
        _ = try await h.letUnseenWorkRunOut()
        if let (operation, send) = try await owedResends().first {
            throw fail(
                "Q3",
                "Expected \(operation.id), whose request (send #\(send)) was in flight when the app "
                    + "crashed, to be sent again after the relaunch, but no pass sent it, although "
                    + "storage still holds it (pending or in flight).",
                expected: "a resend of \(operation.id) with its stored key",
                actual: "stored tasks: \(try await h.describeTasks())",
                hint: "A task the crashed launch left in flight (a row marked \"sending\", a lease) "
                    + "must be picked again after the relaunch.")
        }
    }

    /// The operations in flight at a crash that storage holds as pending and that no request
    /// after the crash carried.
    private func owedResends() async throws -> [(QueueOperation, Int)] {
        let tasks = try await harness.tasks()
        return inFlightAtCrash.sorted { $0.value < $1.value }.compactMap { body, number in
            guard let operation = operations.first(where: { $0.body == body }),
                tasks.contains(where: { $0.body == body && ($0.status == .pending || $0.status == .inFlight) }),
                !harness.sends.contains(where: { $0.request.body == body && $0.number > number })
            else { return nil }
            return (operation, number)
        }
    }
}
