import Foundation

/// An outbox that keeps each task's next due time in storage and lets a periodic sync (a
/// timer, `BGAppRefreshTask`) run sending passes that skip tasks not yet due. It never waits
/// on a clock itself: a conforming design the kit must accept as well as one that sleeps.
actor DueTimeOutbox {
    typealias Post = @Sendable (_ key: String, _ body: Data) async throws -> Int

    static let maximumDelay = Duration.seconds(16)

    private let store: DueTimeStore
    private let post: Post
    private let now: @Sendable () -> Duration
    private var sending: Set<String> = []
    private var submitted = 0

    init(store: DueTimeStore, post: @escaping Post, now: @escaping @Sendable () -> Duration) {
        self.store = store
        self.post = post
        self.now = now
    }

    func enqueue(id: String, body: Data) {
        store.append(
            DueTimeStore.Item(id: id, key: UUID().uuidString, body: body, createdAt: now(), dueAt: now()))
    }

    func flush() async {
        for id in store.all.map(\.id) {
            // Read each task again just before sending it: while this pass awaited the previous
            // request, another pass may have completed it, stopped it or moved its due time.
            // (The explorer found the stale-snapshot version resending a task a 400 had stopped.)
            guard let item = store.all.first(where: { $0.id == id }), item.state == .pending, item.dueAt <= now(),
                sending.insert(item.id).inserted
            else { continue }
            defer { sending.remove(item.id) }
            do {
                let status = try await post(item.key, item.body)
                switch status {
                case 200..<300:
                    store.update(item.id) { $0.state = .completed }
                case 408, 429, 500...:
                    retryLater(item.id)
                default:
                    store.update(item.id) {
                        $0.attempts += 1
                        $0.state = .needsAttention("the server answered \(status); not resent")
                    }
                }
            } catch {
                retryLater(item.id)
            }
        }
    }

    private func retryLater(_ id: String) {
        store.update(id) { item in
            item.attempts += 1
            let exponent = min(item.attempts - 1, 10)
            item.dueAt = now() + min(Self.maximumDelay, .seconds(1 << exponent))
        }
    }
}
