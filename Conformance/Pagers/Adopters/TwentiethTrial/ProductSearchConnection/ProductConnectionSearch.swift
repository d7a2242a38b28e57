import Foundation

// Product search screen backed by a GraphQL connection:
//
//   query Search($term: String!, $after: String) {
//     products(search: $term, first: 20, after: $after) {
//       edges { node { id name } }
//       pageInfo { hasNextPage endCursor }
//     }
//   }
//
// The screen shows two sections, "Top results" (the first page) and "More results" (everything
// loaded by scrolling). When the user types a new term, the current results stay on screen,
// dimmed, until the new term's first page arrives (no flash of an empty list on every keystroke),
// the same way a pull-to-refresh keeps the list until the new first page is there.

struct ConnectionProduct: Identifiable, Equatable, Sendable {
    let id: String
    let name: String
}

struct ProductConnection: Decodable, Sendable {
    struct Edge: Decodable, Sendable { let node: Node }
    struct Node: Decodable, Sendable { let id: String; let name: String }
    struct PageInfo: Decodable, Sendable {
        let hasNextPage: Bool
        let endCursor: String?
    }
    let edges: [Edge]
    let pageInfo: PageInfo
}

enum SearchFailure: Error, Equatable, Sendable {
    case network
    case server(status: Int)
    case cancelled
}

/// One request of the screen: which search it belongs to and where it starts.
struct SearchRequest: Hashable, Sendable {
    let generation: Int
    let term: String
    let after: String?
}

struct ResultSection: Equatable, Sendable {
    enum Kind: Sendable { case topResults, moreResults }
    let kind: Kind
    var products: [ConnectionProduct]
}

struct ProductConnectionSearch: Sendable {
    static let pagesWithoutNewResultsLimit = 3

    private(set) var term: String
    private(set) var sections: [ResultSection] = []
    /// The sections belong to the previous term and are shown dimmed while `pending` loads.
    private(set) var isShowingPreviousResults = false
    private(set) var pending: SearchRequest?
    private(set) var hasNextPage = true
    private(set) var failure: SearchFailure?
    /// The server broke the connection contract (a cursor that does not move): stop paging.
    private(set) var hitPagingBug = false

    private var generation = 0
    private var endCursor: String?
    private var cursorsSeen: Set<String> = []
    private var shownIDs: Set<String> = []
    private var pagesWithoutNewResults = 0

    init(term: String) { self.term = term }

    var visibleProducts: [ConnectionProduct] { sections.flatMap(\.products) }
    var isLoading: Bool { pending != nil }

    // MARK: Triggers

    mutating func search(_ newTerm: String) -> SearchRequest? {
        guard newTerm != term else { return nil }
        term = newTerm
        generation += 1
        pending = nil
        failure = nil
        hasNextPage = true
        hitPagingBug = false
        endCursor = nil
        cursorsSeen = []
        shownIDs = []
        pagesWithoutNewResults = 0
        isShowingPreviousResults = !sections.isEmpty
        return start(after: nil)
    }

    mutating func loadMore() -> SearchRequest? {
        guard failure == nil else { return nil }  // the footer's "Try again" button retries
        return next()
    }

    mutating func retry() -> SearchRequest? {
        failure = nil
        return next()
    }

    private mutating func next() -> SearchRequest? {
        guard pending == nil, hasNextPage, !hitPagingBug else { return nil }
        return start(after: endCursor)
    }

    private mutating func start(after cursor: String?) -> SearchRequest {
        let request = SearchRequest(generation: generation, term: term, after: cursor)
        pending = request
        return request
    }

    // MARK: Answers

    mutating func receive(_ connection: ProductConnection, for request: SearchRequest) {
        guard request == pending else { return }  // an older term, or an answer we already have
        pending = nil

        let isFirstPage = request.after == nil
        if isFirstPage {
            sections = [ResultSection(kind: .topResults, products: [])]
            isShowingPreviousResults = false
        } else if sections.count == 1 {
            sections.append(ResultSection(kind: .moreResults, products: []))
        }
        var added = 0
        for edge in connection.edges where shownIDs.insert(edge.node.id).inserted {
            sections[sections.count - 1].products.append(ConnectionProduct(id: edge.node.id, name: edge.node.name))
            added += 1
        }

        let info = connection.pageInfo
        hasNextPage = info.hasNextPage
        guard info.hasNextPage else { return }
        // A next page promised with a cursor that is missing, is the one we sent, or is one this
        // search already returned would have us load the same pages forever.
        if let cursor = info.endCursor, cursor != request.after, cursorsSeen.insert(cursor).inserted {
            endCursor = cursor
        } else {
            hitPagingBug = true
            return
        }
        if added == 0 {
            pagesWithoutNewResults += 1
            if pagesWithoutNewResults >= Self.pagesWithoutNewResultsLimit { hasNextPage = false }
        } else {
            pagesWithoutNewResults = 0
        }
    }

    mutating func receiveFailure(_ failure: SearchFailure, for request: SearchRequest) {
        guard request == pending else { return }
        pending = nil
        if failure != .cancelled { self.failure = failure }  // a cancelled load is simply asked again
    }
}
