// From an outside trial (round seven): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation
import Observation

// Round 7, pager 1: a GraphQL connection pager (Relay-style `edges` / `pageInfo`).
// Intended: CORRECT.
//
// query SearchRepositories($query: String!, $first: Int!, $after: String) {
//   search(query: $query, first: $first, after: $after) {
//     edges { cursor node { id name } }
//     pageInfo { endCursor hasNextPage }
//   }
// }

public struct ConnectionPageInfo: Sendable, Equatable {
    public var endCursor: String?
    public var hasNextPage: Bool
    public init(endCursor: String?, hasNextPage: Bool) {
        self.endCursor = endCursor
        self.hasNextPage = hasNextPage
    }
}

public struct ConnectionEdge<Node: Sendable>: Sendable {
    public var cursor: String
    public var node: Node
    public init(cursor: String, node: Node) { self.cursor = cursor; self.node = node }
}

public struct ConnectionPage<Node: Sendable>: Sendable {
    public var edges: [ConnectionEdge<Node>]
    public var pageInfo: ConnectionPageInfo
    public init(edges: [ConnectionEdge<Node>], pageInfo: ConnectionPageInfo) { self.edges = edges; self.pageInfo = pageInfo }
}

public struct ConnectionRepository: Sendable, Identifiable, Hashable {
    public let id: Int
    public var name: String
    public init(id: Int, name: String) { self.id = id; self.name = name }
}

/// The GraphQL client call, injected (Apollo / a hand-rolled URLSession client in the app).
public typealias ConnectionSearchQuery =
    @Sendable (_ query: String, _ first: Int, _ after: String?) async throws -> ConnectionPage<ConnectionRepository>

@MainActor
@Observable
public final class ConnectionSearchModel {
    public private(set) var repositories: [ConnectionRepository] = []
    public private(set) var isLoadingPage = false
    public private(set) var pageInfo = ConnectionPageInfo(endCursor: nil, hasNextPage: true)
    public private(set) var errorMessage: String?
    /// The server said "more" without moving the cursor: stop instead of looping.
    public private(set) var isStalled = false
    public private(set) var searchText: String

    public var canLoadMore: Bool { pageInfo.hasNextPage && !isStalled }

    private let searchRepositories: ConnectionSearchQuery
    private let pageSize: Int
    /// Bumped by every search and refresh: answers of an older generation are dropped.
    private var generation = 0
    private var seenIDs: Set<Int> = []
    /// A refresh keeps the old rows on screen until its first page arrives.
    private var replaceOnNextPage = false

    public init(searchText: String, pageSize: Int = 20, searchRepositories: @escaping ConnectionSearchQuery) {
        self.searchText = searchText
        self.pageSize = pageSize
        self.searchRepositories = searchRepositories
    }

    /// Called from the list's last cell `.onAppear` (and the first time the screen shows).
    public func loadNextPage() async {
        guard !isLoadingPage, canLoadMore else { return }
        let generation = self.generation
        let after = pageInfo.endCursor
        let query = searchText
        isLoadingPage = true
        errorMessage = nil
        do {
            let connection = try await searchRepositories(query, pageSize, after)
            guard generation == self.generation else { return }
            isLoadingPage = false
            apply(connection, requestedAfter: after)
        } catch {
            guard generation == self.generation else { return }
            isLoadingPage = false
            if error is CancellationError { return }  // nothing to show: scrolling loads it again
            errorMessage = "Couldn't load repositories. Tap to retry."
        }
    }

    /// The "Retry" footer.
    public func retry() async { await loadNextPage() }

    /// The search field's `.onSubmit` / debounced `.task(id:)`.
    public func search(_ text: String) async {
        guard text != searchText else { return }
        searchText = text
        startNewGeneration()
        repositories = []
        seenIDs = []
        replaceOnNextPage = false
        await loadNextPage()
    }

    /// Pull to refresh: same search, from the top; old rows stay until page 1 arrives.
    public func refresh() async {
        startNewGeneration()
        replaceOnNextPage = true
        await loadNextPage()
    }

    private func startNewGeneration() {
        generation += 1
        pageInfo = ConnectionPageInfo(endCursor: nil, hasNextPage: true)
        isStalled = false
        isLoadingPage = false
        errorMessage = nil
    }

    private func apply(_ connection: ConnectionPage<ConnectionRepository>, requestedAfter after: String?) {
        if replaceOnNextPage {
            replaceOnNextPage = false
            repositories = []
            seenIDs = []
        }
        for edge in connection.edges where seenIDs.insert(edge.node.id).inserted {
            repositories.append(edge.node)
        }
        let next = connection.pageInfo
        if next.hasNextPage, next.endCursor == nil || next.endCursor == after {
            isStalled = true  // a server bug: more pages, but no way to ask for them
        }
        pageInfo = next
    }
}
