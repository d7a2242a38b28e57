import ConformanceKit
import Foundation

/// Runs a ``QueueSchedule`` on the kit's queue harness and checks I7–I9 after every step.
final class QueueScheduleExecution<A: WriteQueueAdapter> {
    /// A failed invariant, ready for the report.
    struct Failure: Error {
        let invariant: ContractID
        let violation: Violation
    }

    let harness: QueueHarness<A>
    private(set) var operations: [QueueOperation] = []
    private var everStored: Set<String> = []
    private var succeeded: Set<String> = []
    private(set) var stepsTaken = 0

    init(harness: QueueHarness<A>) {
        self.harness = harness
    }

    /// Open sends, by number.
    var openSends: [Int] { harness.openSends.map(\.number) }

    /// Applies one step and checks the invariants.
    /// - Returns: `false` when the step could not apply and was skipped.
    @discardableResult
    func apply(_ step: QueueSchedule.Step) async throws -> Bool {
        stepsTaken += 1
        let h = harness
        switch step {
        case .submit:
            let operation = h.operation(operations.count + 1)
            operations.append(operation)
            try await h.submit(operation)
        case .sendingPass:
            try h.startPass()
            try await h.settle()
        case .answer(let number, let reply):
            guard let send = h.openSends.first(where: { $0.number == number }) else {
                h.recorder.record("\(step.swiftCode) skipped: send #\(number) is not open")
                return false
            }
            // The ledger decides the real answer: a resend of a committed write gets the
            // original success whatever fault was asked for.
            if h.answer(send, reply.answer),
                let operation = operations.first(where: { $0.body == send.request.body })
            {
                succeeded.insert(operation.id)
            }
            try await h.settle()
        case .advanceClock:
            guard h.advanceToNextWake() else {
                h.recorder.record("\(step.swiftCode) skipped: no pass waits on the clock")
                return false
            }
            try await h.settle()
        case .crash:
            try await h.crash()
            try await h.launch()
            try await h.settle()
        }
        try await check()
        return true
    }

    private func fail(_ id: ContractID, _ summary: String, expected: String? = nil, actual: String? = nil, hint: String)
        -> Failure
    {
        let title = ContractCatalog.descriptor(id)?.title ?? id.rawValue
        return Failure(
            invariant: id,
            violation: Violation(
                summary: "\(title): \(summary)", expected: expected, actual: actual, hint: hint,
                step: harness.recorder.lastStep))
    }

    private func check() async throws {
        let h = harness
        // I7: every request for one operation carries the same key and body.
        for send in h.sends where !operations.contains(where: { $0.body == send.request.body }) {
            throw fail(
                "I7", "Expected every request to carry the body of the operation it sends, but send #\(send.number) carries \(send.request.bodyText), the body of no submitted operation.",
                actual: "body: \(send.request.bodyText)",
                hint: "Send the body persisted at submit, byte for byte; never rebuild or merge it.")
        }
        for operation in operations {
            let keys = h.sends.filter { $0.request.body == operation.body }.map { $0.request.idempotencyKey ?? "none" }
            if Set(keys).count > 1 {
                throw fail(
                    "I7", "Expected every request for \(operation.id) to carry one key, but it was sent with keys \(keys.map { h.short($0) }.joined(separator: ", ")).",
                    expected: "one key for \(operation.id)", actual: "keys: \(keys.map { h.short($0) }.joined(separator: ", "))",
                    hint: "Choose the key at submit, persist it with the task, and reuse it on every retry and after every relaunch.")
            }
        }
        // I8: the server never holds two records for one operation.
        let records = h.ledger.allRecords
        for operation in operations {
            let held = records.filter { $0.body == operation.body }
            if held.count > 1 {
                throw fail(
                    "I8", "Expected the server to hold at most one record for \(operation.id), but it holds \(held.count) (ids \(held.map { String($0.id) }.joined(separator: ", "))).",
                    expected: "records for \(operation.id): at most 1", actual: "records: \(held.count)",
                    hint: "A resend after an unknown outcome must carry the original key, so the server can recognise it.")
            }
        }
        // I9: a task leaves storage only after an explicit success. A task kept but marked
        // completed has left the queue's work as surely as a removed one.
        let tasks = try await h.tasks().filter { $0.status != .completed }
        let stored = Set(operations.filter { operation in
            tasks.contains { $0.operationID == operation.id || $0.body == operation.body }
        }.map(\.id))
        everStored.formUnion(stored)
        if let lost = operations.first(where: { everStored.contains($0.id) && !stored.contains($0.id) && !succeeded.contains($0.id) }) {
            throw fail(
                "I9", "Expected \(lost.id) to stay in storage until an explicit success, but it is gone (or marked completed) and no request for it was answered with success.",
                expected: "\(lost.id) in storage", actual: "stored: \(tasks.isEmpty ? "none" : tasks.map(\.operationID).joined(separator: ", "))",
                hint: "Remove or complete a task only on a success response; a 5xx, a timeout or a dropped connection leaves the outcome unknown.")
        }
    }
}
