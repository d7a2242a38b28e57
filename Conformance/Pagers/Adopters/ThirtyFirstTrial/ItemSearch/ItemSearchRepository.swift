/// The data layer the list talks to. Completions are always called on the main queue.
public protocol ItemSearchRepository: Sendable {
    func fetch(
        query: String,
        after lastID: SearchItem.ID?,
        limit: Int,
        completion: @escaping @MainActor @Sendable (Result<SearchPage, Error>) -> Void
    )
}
