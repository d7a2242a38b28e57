/// A thread-safe list of the order in which waits ended.
final class OrderLog: @unchecked Sendable {
    private var storage: [Int] = []
    private let lock = NSLockBox()

    func append(_ value: Int) { lock.run { storage.append(value) } }
    var values: [Int] { lock.run { storage } }
}
