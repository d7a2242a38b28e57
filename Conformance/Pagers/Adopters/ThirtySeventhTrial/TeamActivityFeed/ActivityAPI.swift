import Foundation

/// One entry of the team activity feed, as the GraphQL `ActivityEdge.node` decodes.
public struct ActivityItem: Identifiable, Equatable, Sendable {
    public let id: String
    public var actorName: String
    public var summary: String
    /// Server-side revision: a row served again (after a refresh, or on a later page because
    /// the cursor shifted) may come back edited.
    public var revision: Int

    public init(id: String, actorName: String, summary: String, revision: Int = 0) {
        self.id = id
        self.actorName = actorName
        self.summary = summary
        self.revision = revision
    }
}

/// `pageInfo { endCursor hasNextPage }`
public struct PageInfo: Equatable, Sendable {
    public var endCursor: String?
    public var hasNextPage: Bool

    public init(endCursor: String?, hasNextPage: Bool) {
        self.endCursor = endCursor
        self.hasNextPage = hasNextPage
    }
}

/// One answer of the `teamActivity(filter:, first:, after:)` connection.
public struct ActivityConnection: Equatable, Sendable {
    public var edges: [ActivityItem]
    public var pageInfo: PageInfo

    public init(edges: [ActivityItem], pageInfo: PageInfo) {
        self.edges = edges
        self.pageInfo = pageInfo
    }
}

public enum ActivityFilter: String, CaseIterable, Sendable {
    case all
    case mentionsOnly
}

/// The seam the view model talks to. Production implements it over the GraphQL client;
/// tests inject a fake.
public protocol ActivityFeedAPI: Sendable {
    func teamActivity(filter: ActivityFilter, first: Int, after cursor: String?) async throws -> ActivityConnection
}
