// From an outside trial (round six): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// Queue (b): explicit state machine per task in a dictionary-backed store; done tasks are
/// deleted in a cleanup step at the end of each pass. Backoff waits on an injected sleeper.
public enum TaskStateMachineState: Equatable, Sendable {
    case pending
    case sending(attempt: Int)
    case waiting(until: Date)
    case done
    case failed(reason: String)
}

public struct TaskStateMachineTask: Sendable, Equatable {
    public var operation: String
    public var key: String
    public var body: Data
    public var createdAt: Date
    public var attempts: Int
    public var state: TaskStateMachineState
}

/// What survives the process (stands in for a database): tasks by key.
public final class TaskStateMachineStore: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [String: TaskStateMachineTask] = [:]
    public init() {}
    public func read<T>(_ body: ([String: TaskStateMachineTask]) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(tasks) }
    public func write<T>(_ body: (inout [String: TaskStateMachineTask]) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(&tasks) }
}

public actor TaskStateMachineQueue {
    public typealias Send = @Sendable (_ key: String, _ body: Data) async throws -> Int
    private let store: TaskStateMachineStore
    private let send: Send
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (TimeInterval) async throws -> Void
    public private(set) var events: [String] = []

    public init(store: TaskStateMachineStore, send: @escaping Send, now: @escaping @Sendable () -> Date,
                sleep: @escaping @Sendable (TimeInterval) async throws -> Void) {
        self.store = store; self.send = send; self.now = now; self.sleep = sleep
        // A task left `sending` by a dead process has an unknown outcome: send it again.
        store.write { tasks in
            for (k, t) in tasks { if case .sending = t.state { tasks[k]!.state = .pending } }
        }
    }

    public func submit(operation: String, body: Data) {
        let key = UUID().uuidString
        let task = TaskStateMachineTask(operation: operation, key: key, body: body, createdAt: now(), attempts: 0, state: .pending)
        store.write { $0[key] = task }
    }

    private func claimDue() -> [TaskStateMachineTask] {
        let t = now()
        return store.write { tasks in
            var claimed: [TaskStateMachineTask] = []
            for (k, task) in tasks.sorted(by: { $0.value.createdAt < $1.value.createdAt }) {
                let due: Bool
                switch task.state {
                case .pending: due = true
                case .waiting(let until): due = until <= t
                default: due = false
                }
                guard due else { continue }
                tasks[k]!.attempts += 1
                tasks[k]!.state = .sending(attempt: tasks[k]!.attempts)
                claimed.append(tasks[k]!)
            }
            return claimed
        }
    }

    public func runPass() async throws {
        defer { cleanup() }
        while true {
            try Task.checkCancellation()
            let batch = claimDue()
            if batch.isEmpty {
                let earliest = store.read { tasks in
                    tasks.values.compactMap { t -> Date? in if case .waiting(let u) = t.state { return u } else { return nil } }.min()
                }
                guard let earliest else { return }
                try await sleep(max(0.001, earliest.timeIntervalSince(now())))
                continue
            }
            for task in batch {
                let outcome: Result<Int, any Error>
                do { outcome = .success(try await send(task.key, task.body)) } catch { outcome = .failure(error) }
                transition(task.key, after: outcome)
            }
        }
    }

    private func transition(_ key: String, after outcome: Result<Int, any Error>) {
        let t = now()
        store.write { tasks in
            guard var task = tasks[key] else { return }
            let backoff = min(30, 2 * pow(2, Double(min(task.attempts - 1, 8))))
            switch outcome {
            case .failure:
                task.state = .waiting(until: t.addingTimeInterval(backoff))
            case .success(let status) where (200...299).contains(status):
                task.state = .done
            case .success(let status) where status == 408 || status == 429 || (500...599).contains(status):
                task.state = .waiting(until: t.addingTimeInterval(backoff))
            case .success(409):
                task.state = .failed(reason: "409 conflict with server state")
            case .success(let status) where (400...499).contains(status):
                task.state = .failed(reason: "rejected with HTTP \(status)")
            case .success:
                task.state = .waiting(until: t.addingTimeInterval(backoff))
            }
            tasks[key] = task
        }
        events.append("\(key.prefix(8)) -> \(store.read { $0[key]?.state }.map { "\($0)" } ?? "gone")")
    }

    private func cleanup() {
        store.write { tasks in tasks = tasks.filter { $0.value.state != .done } }
    }
}
