// From an outside trial (round six): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// (c) BUGGY: UIKit-style completion-handler controller, page numbers.
/// THE BUG: de-duplication only compares a new page with the *previous page's* IDs
/// ("offset shifting repeats the last few rows of the page before"), so a row repeated
/// from two or more pages back is shown twice.
public struct FooterNotification: Identifiable, Hashable, Sendable {
    public let id: Int
    public let text: String
    public init(id: Int, text: String) { self.id = id; self.text = text }
}

public struct FooterNotificationsPage: Sendable {
    public let notifications: [FooterNotification]
    public let hasNextPage: Bool
    public init(notifications: [FooterNotification], hasNextPage: Bool) {
        self.notifications = notifications; self.hasNextPage = hasNextPage
    }
}

@MainActor
public final class NotificationsFooterController {
    public typealias Service = @MainActor (_ filter: String, _ page: Int,
                                           _ completion: @escaping @MainActor (Result<FooterNotificationsPage, Error>) -> Void) -> Void

    public private(set) var notifications: [FooterNotification] = []
    public private(set) var isLoading = false
    public private(set) var hasNextPage = true
    public private(set) var showsErrorFooter = false
    public private(set) var filter: String

    private let service: Service
    private var nextPage = 1
    private var requestCounter = 0
    private var activeRequest: Int?
    private var previousPageIDs = Set<Int>()

    public init(filter: String, service: @escaping Service) {
        self.filter = filter
        self.service = service
    }

    public func loadNextPage() {
        guard activeRequest == nil, hasNextPage else { return }
        requestCounter += 1
        let requestID = requestCounter
        activeRequest = requestID
        isLoading = true
        showsErrorFooter = false
        let page = nextPage
        service(filter, page) { [weak self] result in
            self?.handle(result, requestID: requestID, page: page)
        }
    }

    public func retry() { loadNextPage() }

    public func filterChanged(to newFilter: String) {
        guard newFilter != filter else { return }
        filter = newFilter
        activeRequest = nil
        notifications = []
        previousPageIDs = []
        nextPage = 1
        hasNextPage = true
        isLoading = false
        showsErrorFooter = false
        loadNextPage()
    }

    private func handle(_ result: Result<FooterNotificationsPage, Error>, requestID: Int, page: Int) {
        guard requestID == activeRequest else { return }
        activeRequest = nil
        isLoading = false
        switch result {
        case .success(let response):
            // BUG: only the previous page's IDs are checked.
            let fresh = response.notifications.filter { !previousPageIDs.contains($0.id) }
            notifications.append(contentsOf: fresh)
            previousPageIDs = Set(response.notifications.map(\.id))
            nextPage = page + 1
            hasNextPage = response.hasNextPage
        case .failure(let error):
            showsErrorFooter = !(error is CancellationError)
        }
    }
}
