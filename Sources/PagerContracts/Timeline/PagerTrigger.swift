/// A UI event the timeline fires at the pager.
@usableFromInline
enum PagerTrigger: Hashable, Sendable, CustomStringConvertible {
    case bottomReached
    case changeQuery(String)
    case refresh
    case retry
    case fillScreen
    case appear

    @usableFromInline
    var description: String {
        switch self {
        case .bottomReached: "bottom reached"
        case .changeQuery(let query): "query changed to \(query)"
        case .refresh: "refresh"
        case .retry: "retry"
        case .fillScreen: "fill the screen"
        case .appear: "the list appeared"
        }
    }
}

/// How the kit answers one request.
@usableFromInline
enum PageAnswer: Hashable, Sendable, CustomStringConvertible {
    case page(PageResponse)
    case failure(PageFailure)

    @usableFromInline
    var description: String {
        switch self {
        case .page(let response): response.description
        case .failure(let failure): "failure: \(failure)"
        }
    }
}

/// What a trigger did: started requests (perhaps none), or was rejected with an error.
enum TriggerOutcome: Hashable, Sendable {
    case started([PagePosition])
    case rejected(String)
}
