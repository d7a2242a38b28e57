/// (c) BUGGY. News list as a reducer (a TCA-like value type): the view sends actions, the
/// reducer mutates state and returns the effect to run; the effect's result comes back as an
/// action. Page numbers, a topic filter, pull to refresh, retry.
///
/// The bug (shipped by many teams): a response is recognised by the *topic it was loaded for*
/// (`response.topic == state.topic`), not by which request it answers. That drops answers from
/// another topic, but not a late answer from an earlier visit to the same topic
/// (Tech → Sports → Tech) nor one from before a pull-to-refresh: those are appended as if they
/// were the current page.
public struct ArticleListState: Sendable {
    public var topic: String
    public var articles: [R7Article] = []
    public var page = 1
    public var isLoading = false
    public var hasMore = true
    public var errorMessage: String?
    var isRefreshing = false

    public init(topic: String) { self.topic = topic }

    public enum Action: Sendable {
        case scrolledToBottom
        case retryTapped
        case topicSelected(String)
        case pulledToRefresh
        case articlesResponse(topic: String, page: Int, Result<R7Page<R7Article>, ArticleError>)
    }

    public struct ArticleError: Error, Equatable, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// The one side effect: fetch a page.
    public struct Fetch: Equatable, Sendable {
        public var topic: String
        public var page: Int
    }

    public mutating func reduce(_ action: Action) -> Fetch? {
        switch action {
        case .scrolledToBottom, .retryTapped:
            guard !isLoading, hasMore else { return nil }
            isLoading = true
            errorMessage = nil
            return Fetch(topic: topic, page: page)

        case .topicSelected(let newTopic):
            topic = newTopic
            articles = []
            page = 1
            hasMore = true
            errorMessage = nil
            isRefreshing = false
            isLoading = true
            return Fetch(topic: newTopic, page: 1)

        case .pulledToRefresh:
            page = 1
            hasMore = true
            errorMessage = nil
            isRefreshing = true
            isLoading = true
            return Fetch(topic: topic, page: 1)

        case .articlesResponse(let responseTopic, _, let result):
            guard responseTopic == topic, isLoading else { return nil }  // BUG: topic, not request
            isLoading = false
            switch result {
            case .success(let response):
                if isRefreshing {
                    articles = []
                    isRefreshing = false
                }
                let known = Set(articles.map(\.id))
                var seen = Set<Int>()
                articles += response.items.filter { !known.contains($0.id) && seen.insert($0.id).inserted }
                page += 1
                hasMore = response.hasMore
            case .failure(let error):
                errorMessage = error.message
            }
            return nil
        }
    }
}
