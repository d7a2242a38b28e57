import Foundation

/// (a) A screen model driven by an `AsyncStream` of UI events, consumed by one long-running
/// task. Each load runs in its own child task, tracked by request ID; only the current
/// request's answer is applied.
@MainActor
public final class EventFeedModel {
    public enum Event: Sendable, Equatable {
        case appear, reachedBottom, refresh, filter(String), retry
    }

    public typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> R8NumberedPage

    // What the view renders.
    public private(set) var items: [R8FeedItem] = []
    public private(set) var query: String
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?

    private let loader: Loader
    private var nextPage = 1
    private var replaceOnArrival = false  // a refresh keeps the old list until its first page lands
    private var loads: [UUID: Task<Void, Never>] = [:]
    private var currentRequest: UUID?

    private struct Envelope: Sendable {
        let event: Event
        let reply: CheckedContinuation<Task<Void, Never>?, Never>?
    }
    private let input: AsyncStream<Envelope>.Continuation
    nonisolated(unsafe) private var consumer: Task<Void, Never>?

    public init(query: String = "", loader: @escaping Loader) {
        self.query = query
        self.loader = loader
        let (stream, input) = AsyncStream<Envelope>.makeStream()
        self.input = input
        consumer = Task { [weak self] in
            for await envelope in stream {
                guard let self else { return }
                let started = self.handle(envelope.event)
                envelope.reply?.resume(returning: started)
            }
        }
    }

    deinit {
        consumer?.cancel()
        input.finish()
    }

    /// Fire-and-forget, for `onAppear` / the last cell's `onAppear`.
    public func send(_ event: Event) {
        input.yield(Envelope(event: event, reply: nil))
    }

    /// For `.refreshable { await model.sendAndWait(.refresh) }`: returns when the load the
    /// event started (if any) has finished.
    public func sendAndWait(_ event: Event) async {
        let started: Task<Void, Never>? = await withCheckedContinuation { reply in
            input.yield(Envelope(event: event, reply: reply))
        }
        await started?.value
    }

    private func handle(_ event: Event) -> Task<Void, Never>? {
        switch event {
        case .appear:
            guard items.isEmpty, currentRequest == nil else { return nil }
            return startLoad()
        case .reachedBottom:
            // Ignored while a page loads and after the last page. During an error the
            // failed page is asked for again (nextPage did not move).
            guard currentRequest == nil, hasMore else { return nil }
            return startLoad()
        case .retry:
            guard currentRequest == nil, errorMessage != nil else { return nil }
            return startLoad()
        case .refresh:
            cancelLoads()
            nextPage = 1
            hasMore = true
            replaceOnArrival = true
            return startLoad()
        case .filter(let newQuery):
            cancelLoads()
            query = newQuery
            items = []
            nextPage = 1
            hasMore = true
            replaceOnArrival = false
            return startLoad()
        }
    }

    private func cancelLoads() {
        for task in loads.values { task.cancel() }
        loads.removeAll()
        currentRequest = nil
        isLoading = false
    }

    private func startLoad() -> Task<Void, Never> {
        let id = UUID()
        let page = nextPage
        let query = query
        let loader = loader
        currentRequest = id
        isLoading = true
        errorMessage = nil
        let task = Task { [weak self] in
            let result: Result<R8NumberedPage, any Error>
            do {
                result = .success(try await loader(query, page))
            } catch {
                result = .failure(error)
            }
            self?.finish(id, result)
        }
        loads[id] = task
        return task
    }

    private func finish(_ id: UUID, _ result: Result<R8NumberedPage, any Error>) {
        // Only the request we are waiting for may touch the state: a load cancelled by a
        // filter change or refresh can still come back with data.
        guard loads.removeValue(forKey: id) != nil, id == currentRequest else { return }
        currentRequest = nil
        isLoading = false
        switch result {
        case .success(let page):
            if replaceOnArrival {
                items = []
                replaceOnArrival = false
            }
            r8AppendUnique(page.items, to: &items)
            nextPage += 1
            hasMore = page.hasMore
            errorMessage = nil
        case .failure(let error):
            // A cancelled live request just stops loading; the next bottom/retry asks again.
            if !r8IsCancellation(error) {
                errorMessage = "Couldn't load more. \(error)"
            }
        }
    }
}
