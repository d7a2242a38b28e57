import Foundation
import Observation

// MARK: - Domain

public struct CatalogEntry: Identifiable, Hashable, Sendable {
    public let id: Int
    public let name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

public struct CatalogSlice: Sendable, Equatable {
    public let entries: [CatalogEntry]
    /// Opaque cursor for the next slice; `nil` when the list is exhausted.
    public let nextCursor: String?

    public init(entries: [CatalogEntry], nextCursor: String?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// Cursor-based catalog search endpoint. `cursor == nil` asks for the first slice.
public protocol CatalogService: Sendable {
    func entries(matching query: String, after cursor: String?) async throws -> CatalogSlice
}

// MARK: - Loader (actor)

/// Owns the paging state. Commands are processed strictly in order by a single consumer task;
/// network loads run concurrently with the queue so a query change never waits for an old load.
public actor CatalogPageLoader {

    public struct Snapshot: Sendable, Equatable {
        public enum Activity: Sendable, Equatable {
            case idle
            case loadingFirst
            case loadingMore
            case refreshing
        }

        public var revision: Int = 0
        public var query: String = ""
        public var entries: [CatalogEntry] = []
        public var activity: Activity = .idle
        public var failure: String?
        public var reachedEnd: Bool = false

        public init() {}
    }

    public enum Command: Sendable, Equatable {
        case start
        case loadMore
        case search(String)
        case refresh
        case retry
    }

    private struct Job: Sendable {
        let command: Command
        /// Hands back the load the command started or joined (nil if it needed none).
        let reply: CheckedContinuation<Task<Void, Never>?, Never>?
    }

    private enum LoadKind: Sendable {
        case first, more, refresh
    }

    private let service: any CatalogService
    private let jobs: AsyncStream<Job>.Continuation
    private let snapshotsContinuation: AsyncStream<Snapshot>.Continuation
    /// Every state change is published here (buffered, newest wins).
    public nonisolated let snapshots: AsyncStream<Snapshot>

    private var state = Snapshot()
    private var cursor: String?
    private var ticket = 0
    private var inFlight: (ticket: Int, kind: LoadKind, task: Task<Void, Never>)?
    private var lastFailedKind: LoadKind?

    public init(service: any CatalogService, query: String = "") {
        self.service = service
        let (jobStream, jobContinuation) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobContinuation
        let (snapshots, snapshotsContinuation) = AsyncStream.makeStream(
            of: Snapshot.self, bufferingPolicy: .bufferingNewest(1))
        self.snapshots = snapshots
        self.snapshotsContinuation = snapshotsContinuation
        self.state.query = query
        // The consumer ends by itself when `jobs` is finished in deinit.
        Task { [weak self] in
            for await job in jobStream {
                guard let self else {
                    job.reply?.resume(returning: nil)
                    continue
                }
                let load = await self.handle(job.command)
                job.reply?.resume(returning: load)
            }
        }
    }

    deinit {
        jobs.finish()
        snapshotsContinuation.finish()
        inFlight?.task.cancel()
    }

    /// Fire-and-forget.
    public nonisolated func enqueue(_ command: Command) {
        jobs.yield(Job(command: command, reply: nil))
    }

    /// Enqueues the command and returns once the load it started (or joined) has finished
    /// and its result has been applied — or immediately if the command did not need a load.
    public nonisolated func perform(_ command: Command) async {
        let load = await withCheckedContinuation { (reply: CheckedContinuation<Task<Void, Never>?, Never>) in
            if case .terminated = jobs.yield(Job(command: command, reply: reply)) {
                reply.resume(returning: nil)
            }
        }
        await load?.value
    }

    public func currentSnapshot() -> Snapshot { state }

    // MARK: Command handling

    private func handle(_ command: Command) -> Task<Void, Never>? {
        switch command {
        case .start:
            if state.entries.isEmpty, inFlight == nil, state.failure == nil {
                return beginLoad(.first)
            }
            return inFlight?.task

        case .loadMore:
            if let running = inFlight {
                // Duplicate bottom trigger while a load is running: don't start another one.
                return running.task
            } else if state.reachedEnd || state.failure != nil {
                return nil
            } else {
                return beginLoad(state.entries.isEmpty && cursor == nil ? .first : .more)
            }

        case .search(let query):
            guard query != state.query else { return inFlight?.task }
            cancelInFlight()
            state.query = query
            state.entries = []
            cursor = nil
            state.reachedEnd = false
            state.failure = nil
            lastFailedKind = nil
            return beginLoad(.first)

        case .refresh:
            cancelInFlight()
            state.failure = nil
            lastFailedKind = nil
            return beginLoad(state.entries.isEmpty ? .first : .refresh)

        case .retry:
            guard let kind = lastFailedKind, inFlight == nil else { return inFlight?.task }
            state.failure = nil
            lastFailedKind = nil
            return beginLoad(kind)
        }
    }

    private func beginLoad(_ kind: LoadKind) -> Task<Void, Never> {
        ticket += 1
        let myTicket = ticket
        let query = state.query
        let after: String? = (kind == .more) ? cursor : nil
        let service = self.service

        switch kind {
        case .first: state.activity = .loadingFirst
        case .more: state.activity = .loadingMore
        case .refresh: state.activity = .refreshing
        }
        publish()

        let task = Task {
            let outcome: Result<CatalogSlice, any Error>
            do {
                outcome = .success(try await service.entries(matching: query, after: after))
            } catch {
                outcome = .failure(error)
            }
            self.complete(ticket: myTicket, kind: kind, outcome: outcome)
        }
        inFlight = (myTicket, kind, task)
        return task
    }

    private func complete(ticket finished: Int, kind: LoadKind, outcome: Result<CatalogSlice, any Error>) {
        // A newer search / refresh superseded this load: its result must not touch anything.
        guard finished == ticket, inFlight?.ticket == finished else { return }
        inFlight = nil
        state.activity = .idle

        switch outcome {
        case .success(let slice):
            switch kind {
            case .first, .refresh:
                state.entries = slice.entries
            case .more:
                let seen = Set(state.entries.map(\.id))
                state.entries.append(contentsOf: slice.entries.filter { !seen.contains($0.id) })
            }
            cursor = slice.nextCursor
            state.reachedEnd = slice.nextCursor == nil
            state.failure = nil
        case .failure(let error):
            if error is CancellationError {
                // Cancelled without being superseded (should not happen); treat as a failure to retry.
                state.failure = "Cancelled"
            } else {
                state.failure = (error as? LocalizedError)?.errorDescription ?? String(describing: error)
            }
            lastFailedKind = kind
        }
        publish()
    }

    private func cancelInFlight() {
        inFlight?.task.cancel()
        inFlight = nil
    }

    private func publish() {
        state.revision += 1
        snapshotsContinuation.yield(state)
    }
}

// MARK: - View model

/// Main-actor mirror of the loader for the UI layer.
@MainActor
@Observable
public final class CatalogViewModel {
    public private(set) var query: String = ""
    public private(set) var entries: [CatalogEntry] = []
    public private(set) var isLoading: Bool = false
    public private(set) var isRefreshing: Bool = false
    public private(set) var errorMessage: String?
    public private(set) var canLoadMore: Bool = true

    @ObservationIgnored public let loader: CatalogPageLoader
    @ObservationIgnored private var mirrorTask: Task<Void, Never>?
    @ObservationIgnored private var revision = -1

    public init(service: any CatalogService, query: String = "") {
        self.loader = CatalogPageLoader(service: service, query: query)
        self.query = query
        let updates = loader.snapshots
        self.mirrorTask = Task { [weak self] in
            for await snapshot in updates {
                guard let self else { return }
                self.apply(snapshot)
            }
        }
    }

    isolated deinit {
        mirrorTask?.cancel()
    }

    // Fire-and-forget UI hooks.
    public func onAppear() { loader.enqueue(.start) }
    public func reachedBottom() { loader.enqueue(.loadMore) }
    public func searchTextChanged(_ text: String) {
        query = text
        loader.enqueue(.search(text))
    }
    public func retryTapped() { loader.enqueue(.retry) }

    // Awaitable variants (for `.refreshable`, previews and tests).
    public func start() async { await run(.start) }
    public func loadMore() async { await run(.loadMore) }
    public func search(_ text: String) async {
        query = text
        await run(.search(text))
    }
    public func refresh() async { await run(.refresh) }
    public func retry() async { await run(.retry) }

    private func run(_ command: CatalogPageLoader.Command) async {
        await loader.perform(command)
        apply(await loader.currentSnapshot())
    }

    private func apply(_ snapshot: CatalogPageLoader.Snapshot) {
        guard snapshot.revision > revision else { return } // the stream may deliver an older one late
        revision = snapshot.revision
        query = snapshot.query
        entries = snapshot.entries
        isLoading = snapshot.activity != .idle
        isRefreshing = snapshot.activity == .refreshing
        errorMessage = snapshot.failure
        canLoadMore = !snapshot.reachedEnd && snapshot.failure == nil
    }
}
