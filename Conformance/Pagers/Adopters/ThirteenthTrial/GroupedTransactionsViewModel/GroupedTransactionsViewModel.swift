import Foundation
import Observation

/// Transactions grouped into one section per day, newest first as the server sends them,
/// loaded a page at a time (cursor API) with a server-side search.
@Observable
@MainActor
final class GroupedTransactionsViewModel {
    struct DaySection: Identifiable, Equatable {
        /// The first transaction's ID: unique even if the server sends one day in two runs.
        let id: String
        let day: Date
        var transactions: [Transaction]
    }

    enum LoadError: Equatable {
        case offline
        case server(status: Int)
        case other(String)

        var message: String {
            switch self {
            case .offline: "You're offline. Check your connection and try again."
            case .server: "Something went wrong on our side. Try again."
            case .other: "Couldn't load transactions."
            }
        }
    }

    // MARK: State the view reads

    private(set) var searchText: String
    /// Accepted transactions, de-duplicated by ID, in server order.
    private(set) var transactions: [Transaction] = []
    private(set) var isLoading = false
    private(set) var hasMore = true
    private(set) var loadError: LoadError?
    /// The server kept handing back a cursor we had already used: paging stopped.
    private(set) var paginationStalled = false

    /// Consecutive transactions of one calendar day form a section, in server order, so the
    /// flattened sections are exactly `transactions`.
    var sections: [DaySection] {
        var sections: [DaySection] = []
        for transaction in transactions {
            let day = calendar.startOfDay(for: transaction.bookedAt)
            if let last = sections.indices.last, sections[last].day == day {
                sections[last].transactions.append(transaction)
            } else {
                sections.append(DaySection(id: transaction.id, day: day, transactions: [transaction]))
            }
        }
        return sections
    }

    // MARK: Paging bookkeeping

    private struct ActiveRequest {
        let token: UUID
        let cursor: String?
    }

    @ObservationIgnored private let service: any TransactionsService
    @ObservationIgnored private let calendar: Calendar
    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private var nextCursor: String?
    /// Every cursor the server has handed us for the current search, to catch loops.
    @ObservationIgnored private var usedCursors: Set<String> = []
    @ObservationIgnored private var activeRequest: ActiveRequest?

    init(
        service: any TransactionsService, searchText: String = "",
        calendar: Calendar = .current, pageSize: Int = 30
    ) {
        self.service = service
        self.searchText = searchText
        self.calendar = calendar
        self.pageSize = pageSize
    }

    // MARK: Events from the view

    /// First load of the screen (a page that loaded nothing and ended is not asked again).
    func onAppear() {
        guard transactions.isEmpty, nextCursor == nil else { return }
        loadNextPage()
    }

    /// Called from each row's `onAppear`.
    func loadMoreIfNeeded(currentTransaction transaction: Transaction) {
        guard transaction.id == transactions.last?.id else { return }
        loadNextPage()
    }

    func loadNextPage() {
        guard !isLoading, loadError == nil, hasMore else { return }
        startRequest(cursor: nextCursor)
    }

    func retry() {
        guard !isLoading, hasMore else { return }
        loadError = nil
        startRequest(cursor: nextCursor)
    }

    func searchTextChanged(_ text: String) {
        guard text != searchText else { return }
        searchText = text
        transactions = []
        resetPaging()
        startRequest(cursor: nil)
    }

    /// Pull to refresh: the current transactions stay on screen until the first page arrives.
    func refresh() {
        resetPaging()
        startRequest(cursor: nil)
    }

    // MARK: Loading

    private func resetPaging() {
        nextCursor = nil
        usedCursors = []
        hasMore = true
        paginationStalled = false
        loadError = nil
    }

    private func startRequest(cursor: String?) {
        let request = ActiveRequest(token: UUID(), cursor: cursor)
        activeRequest = request
        isLoading = true
        loadError = nil
        service.fetchTransactions(search: searchText, cursor: cursor, limit: pageSize) { [weak self] result in
            self?.handle(result, for: request)
        }
    }

    private func handle(_ result: Result<TransactionsPage, any Error>, for request: ActiveRequest) {
        switch result {
        case .success(let page):
            // A newer search or refresh replaced this request: drop its page.
            guard request.token == activeRequest?.token else { return }
            activeRequest = nil
            isLoading = false
            apply(page, requestedWith: request.cursor)

        case .failure(let error):
            isLoading = false
            if Self.isCancellation(error) { return }
            loadError = Self.loadError(for: error)
        }
    }

    private func apply(_ page: TransactionsPage, requestedWith cursor: String?) {
        if cursor == nil {
            // First page of a search or refresh replaces the list.
            transactions = []
        }
        var seen = Set(transactions.map(\.id))
        transactions.append(contentsOf: page.transactions.filter { seen.insert($0.id).inserted })

        guard page.hasMore else {
            hasMore = false
            nextCursor = nil
            return
        }
        guard let next = page.nextCursor, next != cursor, !usedCursors.contains(next) else {
            // The server says there is more but gave no new cursor: asking again would
            // load the same page forever.
            paginationStalled = true
            hasMore = false
            return
        }
        usedCursors.insert(next)
        nextCursor = next
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? URLError, error.code == .cancelled { return true }
        return false
    }

    private static func loadError(for error: any Error) -> LoadError {
        switch error {
        case let error as URLError where error.code == .notConnectedToInternet:
            .offline
        case TransactionsServiceError.httpStatus(let status):
            .server(status: status)
        default:
            .other(String(describing: error))
        }
    }
}
