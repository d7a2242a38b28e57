// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation
import Observation

struct RoundEightContact: Identifiable, Hashable, Sendable {
    let id: Int
    var name: String
}

struct RoundEightOffsetPage: Sendable {
    var contacts: [RoundEightContact]
    /// The server's "there is more after this window" flag.
    var hasMore: Bool
}

/// Old-school service layer: completions are delivered on `DispatchQueue.main`.
protocol RoundEightContactsService: Sendable {
    func fetch(
        query: String, offset: Int, limit: Int,
        completion: @escaping @Sendable (Result<RoundEightOffsetPage, Error>) -> Void)
}

/// Contacts directory with search and pull to refresh, paged by offset/limit.
@MainActor
@Observable
final class RoundEightOffsetListModel {
    private(set) var contacts: [RoundEightContact] = []
    private(set) var isLoading = false
    private(set) var isRefreshing = false
    private(set) var hasMore = true
    private(set) var lastError: Error?
    private(set) var query: String

    let limit: Int

    @ObservationIgnored private var offset = 0
    @ObservationIgnored private var seenIDs: Set<Int> = []
    @ObservationIgnored private var inFlight: UUID?
    /// Set by pull to refresh: the next first page replaces what is shown.
    @ObservationIgnored private var replaceOnNextPage = false
    @ObservationIgnored private let service: any RoundEightContactsService

    init(service: any RoundEightContactsService, query: String = "", limit: Int = 30) {
        self.service = service
        self.query = query
        self.limit = limit
    }

    var showsError: Bool { lastError != nil }

    // MARK: Intents

    func loadMoreIfNeeded() {
        guard inFlight == nil, hasMore else { return }
        request(offset: offset)
    }

    func retry() {
        loadMoreIfNeeded()
    }

    func search(_ text: String) {
        guard text != query else { return }
        query = text
        startOver(clearing: true)
    }

    func pullToRefresh() {
        isRefreshing = true
        startOver(clearing: false)
    }

    // MARK: Private

    private func startOver(clearing: Bool) {
        inFlight = nil  // any answer still on its way is now someone else's
        offset = 0
        hasMore = true
        lastError = nil
        if clearing {
            contacts = []
            seenIDs = []
            replaceOnNextPage = false
        } else {
            replaceOnNextPage = true
        }
        request(offset: 0)
    }

    private func request(offset: Int) {
        let token = UUID()
        inFlight = token
        isLoading = true
        service.fetch(query: query, offset: offset, limit: limit) { [weak self] result in
            // The service calls back on the main queue.
            MainActor.assumeIsolated {
                self?.handle(result, token: token, offset: offset)
            }
        }
    }

    private func handle(_ result: Result<RoundEightOffsetPage, Error>, token: UUID, offset requested: Int) {
        guard inFlight == token else { return }  // stale, or delivered twice
        inFlight = nil
        isLoading = false
        isRefreshing = false

        switch result {
        case .success(let page):
            if replaceOnNextPage {
                contacts = []
                seenIDs = []
                replaceOnNextPage = false
            }
            for contact in page.contacts where seenIDs.insert(contact.id).inserted {
                contacts.append(contact)
            }
            offset = requested + page.contacts.count
            hasMore = page.hasMore
            lastError = nil
        case .failure(let error):
            lastError = error
        }
    }
}
