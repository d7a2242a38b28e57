import Foundation

/// What the payroll API answered for one attempt, or nil when no answer arrived.
struct UploadAnswer: Sendable {
    var statusCode: Int
    var body: Data
}

typealias PayrollTransport = @Sendable (
    _ idempotencyKey: String, _ payload: Data,
    _ completion: @escaping @Sendable (Result<UploadAnswer, any Error>) -> Void
) -> Void

/// Sends one change and waits for its answer. Blocking the operation's thread keeps the chain
/// simple: the next operation in the chain depends on this one finishing.
final class UploadChangeOperation: Operation, @unchecked Sendable {
    let changeID: UUID
    private let key: String
    private let payload: Data
    private let transport: PayrollTransport
    private let shouldStop: @Sendable () -> Bool
    private(set) var outcome: Result<UploadAnswer, any Error>?

    init(change: PayrollPendingChange, transport: @escaping PayrollTransport, shouldStop: @escaping @Sendable () -> Bool) {
        changeID = change.id
        key = change.idempotencyKey
        payload = change.payload
        self.transport = transport
        self.shouldStop = shouldStop
        super.init()
        name = "upload \(change.clientReference)"
    }

    override func main() {
        if isCancelled || shouldStop() { return }  // outcome stays nil: not sent
        let answered = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        transport(key, payload) { result in
            box.set(result)
            answered.signal()
        }
        answered.wait()
        outcome = box.get()
    }
}

private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<UploadAnswer, any Error>?
    func set(_ newValue: Result<UploadAnswer, any Error>) { lock.withLock { value = newValue } }
    func get() -> Result<UploadAnswer, any Error>? { lock.withLock { value } }
}
