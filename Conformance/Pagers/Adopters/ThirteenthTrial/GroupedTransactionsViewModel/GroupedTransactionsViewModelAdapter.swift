import PagerContracts
import Foundation

// MARK: - The app's service, served by the kit's page source

extension Transaction {
    /// A kit row as a transaction. Dates fall 5 hours apart (a few per day) so rows spread
    /// over several day sections; `ID`s are the rows' string IDs.
    init(row: PageRow) {
        self.init(
            id: row.stringID, merchant: row.title, amountMinor: -100 * row.id, currencyCode: "EUR",
            bookedAt: Date(timeIntervalSince1970: 1_750_000_000 - Double(row.id) * 5 * 3600))
    }
}

/// Same shape as `URLSessionTransactionsService`: the load calls back on some other thread,
/// and the service hops to the main queue before calling the view model back.
struct PageSourceTransactionsService: TransactionsService {
    let source: PageSource

    func fetchTransactions(
        search: String, cursor: String?, limit: Int,
        completion: @escaping @MainActor @Sendable (Result<TransactionsPage, any Error>) -> Void
    ) {
        source.load(query: search, cursor: cursor) { result in
            let mapped: Result<TransactionsPage, any Error> = result
                .map { response in
                    TransactionsPage(
                        transactions: response.rows.map(Transaction.init(row:)),
                        hasMore: response.hasMore, nextCursor: response.nextCursor)
                }
                .mapError { error in
                    // What URLSession / the HTTP layer would hand over instead.
                    guard let failure = error as? PageFailure else { return error }
                    if failure.isCancellation { return URLError(.cancelled) }
                    if case .serverError(let status) = failure {
                        return TransactionsServiceError.httpStatus(status)
                    }
                    return URLError(.timedOut)
                }
            DispatchQueue.main.async {
                completion(mapped)
            }
        }
    }
}

// MARK: - Async level: the real view model

struct GroupedTransactionsViewModelAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    static let capabilities = PagerCapabilities(
        pagination: .cursors,
        triggers: [.refresh],
        loader: .completionHandler,
        stopsOnNoProgress: false,   // never chains a load by itself
        detectsCursorCycles: true)

    static func itemID(for row: PageRow) -> String { row.stringID }

    let model: GroupedTransactionsViewModel

    init(source: PageSource) async {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        model = await GroupedTransactionsViewModel(
            service: PageSourceTransactionsService(source: source), searchText: "A",
            calendar: calendar, pageSize: 30)
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.searchTextChanged(query) }
    func refresh() async { await model.refresh() }
    func retry() async { await model.retry() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                // What the list shows: the sections, flattened.
                visibleIDs: model.sections.flatMap { $0.transactions.map(\.id) },
                isLoading: model.isLoading,
                hasMore: model.hasMore,
                showsError: model.loadError != nil,
                hasProtocolError: model.paginationStalled)
        }
    }
}


