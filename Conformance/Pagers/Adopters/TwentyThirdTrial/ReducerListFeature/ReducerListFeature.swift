import Foundation
import Observation

/// A search-results list written in a Redux / TCA style without any library.
///
/// - `State` holds everything the screen shows plus the bookkeeping of the page load.
/// - `Action` is every event: user intents and the results effects send back.
/// - `reduce(state:action:)` is pure: it mutates the state and returns effects to run.
/// - `ReducerListFeatureStore` runs effects; each effect is an async closure whose result is sent
///   back as an action. Effects carry an ID so a query change can cancel the running page load.
///
/// Page-number based. A stale or duplicate result is dropped because its request ID is not the
/// one the state has in flight; request IDs are never reused, not even across query changes.
enum ReducerListFeature {
    struct Item: Equatable, Identifiable, Sendable {
        let id: Int
        var title: String
    }

    struct Page: Equatable, Sendable {
        var items: [Item]
        var hasMore: Bool
    }

    /// Dependencies an effect may use (the network, in the app).
    struct Client: Sendable {
        var fetchPage: @Sendable (_ query: String, _ page: Int) async throws -> Page
    }

    enum LoadError: Equatable, Sendable {
        /// The request was cancelled: not something to show the user.
        case cancelled
        case failed(String)
    }

    static let noProgressLimit = 3

    struct State: Equatable, Sendable {
        var query: String = "A"
        var items: [Item] = []
        var seenIDs: Set<Int> = []
        var nextPage: Int = 1
        var hasMore: Bool = true
        var errorMessage: String? = nil
        /// The request whose result the state is waiting for; `nil` when idle.
        var inFlightRequestID: Int? = nil
        /// Monotonic counter for request IDs; survives query changes.
        var lastRequestID: Int = 0
        var pagesWithoutNewItems: Int = 0
        /// Loading stopped after `noProgressLimit` pages in a row that added nothing.
        var isStalled: Bool = false

        var isLoading: Bool { inFlightRequestID != nil }
        var canLoadMore: Bool { inFlightRequestID == nil && hasMore && !isStalled }
    }

    enum Action: Equatable, Sendable {
        case reachedBottom
        case retryTapped
        case queryChanged(String)
        case pageLoaded(requestID: Int, Page)
        case pageFailed(requestID: Int, LoadError)
    }

    enum EffectID: Hashable, Sendable {
        case pageLoad
    }

    struct Effect: Sendable {
        enum Work: Sendable {
            case run(@Sendable (Client) async -> Action)
            case cancel
        }

        var id: EffectID?
        var work: Work

        /// Runs `body`; a running effect with the same ID is cancelled first.
        static func run(id: EffectID? = nil, _ body: @escaping @Sendable (Client) async -> Action) -> Effect {
            Effect(id: id, work: .run(body))
        }

        static func cancel(id: EffectID) -> Effect {
            Effect(id: id, work: .cancel)
        }
    }

    // MARK: - Reducer

    static func reduce(state: inout State, action: Action) -> [Effect] {
        switch action {
        case .reachedBottom, .retryTapped:
            return startPageLoad(&state)

        case .queryChanged(let query):
            guard query != state.query else { return [] }
            // Everything a query owns starts over; only the request counter carries on, so a
            // late result of the old query can never match the new request ID.
            state = State(query: query, lastRequestID: state.lastRequestID)
            var effects: [Effect] = [.cancel(id: .pageLoad)]
            effects += startPageLoad(&state)
            return effects

        case let .pageLoaded(requestID, page):
            guard requestID == state.inFlightRequestID else { return [] }  // stale or repeated
            state.inFlightRequestID = nil
            state.errorMessage = nil
            var added = 0
            for item in page.items {
                if state.seenIDs.insert(item.id).inserted {
                    state.items.append(item)
                    added += 1
                }
            }
            state.nextPage += 1
            state.hasMore = page.hasMore
            state.pagesWithoutNewItems = added == 0 ? state.pagesWithoutNewItems + 1 : 0
            if page.hasMore && state.pagesWithoutNewItems >= noProgressLimit {
                state.isStalled = true
            }
            return []

        case let .pageFailed(requestID, error):
            guard requestID == state.inFlightRequestID else { return [] }  // stale or repeated
            state.inFlightRequestID = nil
            // The page position stays where it was: the next trigger asks for the same page.
            if case .failed(let message) = error {
                state.errorMessage = message
            }
            return []
        }
    }

    private static func startPageLoad(_ state: inout State) -> [Effect] {
        guard state.canLoadMore else { return [] }
        state.lastRequestID += 1
        let requestID = state.lastRequestID
        let query = state.query
        let page = state.nextPage
        state.inFlightRequestID = requestID
        state.errorMessage = nil
        return [
            .run(id: .pageLoad) { client in
                do {
                    let loaded = try await client.fetchPage(query, page)
                    return .pageLoaded(requestID: requestID, loaded)
                } catch is CancellationError {
                    return .pageFailed(requestID: requestID, .cancelled)
                } catch {
                    return .pageFailed(requestID: requestID, .failed(String(describing: error)))
                }
            }
        ]
    }
}

// MARK: - Store

/// Holds the state, runs the reducer and its effects. `send` returns the task of the effects it
/// started (like TCA's `StoreTask`) so a caller can await the work an action began.
@MainActor
@Observable
final class ReducerListFeatureStore {
    private(set) var state: ReducerListFeature.State

    private let client: ReducerListFeature.Client

    private struct Running {
        let token: Int
        let task: Task<Void, Never>
    }

    @ObservationIgnored private var running: [ReducerListFeature.EffectID: Running] = [:]
    @ObservationIgnored private var lastEffectToken = 0

    init(
        initialState: ReducerListFeature.State = ReducerListFeature.State(),
        client: ReducerListFeature.Client
    ) {
        self.state = initialState
        self.client = client
    }

    @discardableResult
    func send(_ action: ReducerListFeature.Action) -> Task<Void, Never>? {
        let effects = ReducerListFeature.reduce(state: &state, action: action)
        var started: [Task<Void, Never>] = []
        for effect in effects {
            switch effect.work {
            case .cancel:
                if let id = effect.id {
                    running.removeValue(forKey: id)?.task.cancel()
                }
            case .run(let body):
                started.append(launch(body, id: effect.id))
            }
        }
        switch started.count {
        case 0:
            return nil
        case 1:
            return started[0]
        default:
            let all = started
            return Task {
                for task in all { await task.value }
            }
        }
    }

    private func launch(
        _ body: @escaping @Sendable (ReducerListFeature.Client) async -> ReducerListFeature.Action,
        id: ReducerListFeature.EffectID?
    ) -> Task<Void, Never> {
        if let id {
            running.removeValue(forKey: id)?.task.cancel()
        }
        lastEffectToken += 1
        let token = lastEffectToken
        let client = self.client
        let task = Task { [weak self] in
            let action = await body(client)
            guard let self else { return }
            if let id, self.running[id]?.token == token {
                self.running[id] = nil
            }
            // Sent even when the effect was cancelled: the reducer drops results it no longer
            // waits for by their request ID.
            self.send(action)
        }
        if let id {
            running[id] = Running(token: token, task: task)
        }
        return task
    }
}
