// Company directory: members of a department, with pull to refresh and a department picker.
// App code in the app's older style: a main-actor controller object, a completion-handler
// service whose callbacks arrive on URLSession's delegate queue, and the DTO → display-model
// work (JSON decoding, name formatting) done on a private serial queue before the result is
// applied on the main actor.
import Foundation
import Observation

/// The `/departments/{id}/members?page=` payload.
public struct MemberDTO: Codable, Sendable {
    public let id: String
    public let fullName: String

    public init(id: String, fullName: String) {
        self.id = id
        self.fullName = fullName
    }

    enum CodingKeys: String, CodingKey {
        case id
        case fullName = "full_name"
    }
}

public struct MemberBatch: Codable, Sendable {
    public let members: [MemberDTO]
    public let hasMore: Bool

    public init(members: [MemberDTO], hasMore: Bool) {
        self.members = members
        self.hasMore = hasMore
    }

    enum CodingKeys: String, CodingKey {
        case members
        case hasMore = "has_more"
    }
}

public protocol DirectoryService: Sendable {
    /// The raw response body. Calls back as URLSession does: on some background queue.
    func fetchMembers(
        department: String, page: Int,
        completion: @escaping @Sendable (Result<Data, any Error>) -> Void)
}

/// What a row shows.
public struct MemberRow: Identifiable, Hashable, Sendable {
    public let id: String
    public let displayName: String
    public let initials: String

    init(_ dto: MemberDTO) {
        id = dto.id
        let parts = dto.fullName.split(separator: " ").map(String.init)
        displayName = parts.joined(separator: " ")
        initials = String(parts.compactMap(\.first).prefix(2)).uppercased()
    }
}

public struct RequestToken: Hashable, Sendable {
    let id = UUID()
}

public enum DirectoryError: Error, Sendable {
    /// A second "load more" while one is running. The table's prefetch delegate calls this
    /// freely and ignores the error.
    case alreadyLoading
}

@MainActor
@Observable
public final class TeamDirectoryController {
    public enum Phase: Equatable, Sendable {
        case idle
        case loading(RequestToken)
        case failed(page: Int)
        case complete
    }

    public private(set) var rows: [MemberRow] = []
    public private(set) var phase: Phase = .idle
    /// The banner stays up until the page it is about has arrived.
    public private(set) var errorBanner: String?
    public private(set) var department: String

    @ObservationIgnored private let service: any DirectoryService
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var seenIDs: Set<String> = []
    /// Pull to refresh keeps the old rows on screen until the new first page replaces them.
    @ObservationIgnored private var replaceOnNextPage = false

    /// Decoding and display-model work (names, initials) stays off the main thread: a page of
    /// a big department is a few hundred KB of JSON. Internal, not private: the tests wait on it.
    nonisolated static let processingQueue = DispatchQueue(label: "directory.processing", qos: .userInitiated)

    public init(department: String, service: any DirectoryService) {
        self.department = department
        self.service = service
    }

    public var isLoading: Bool {
        if case .loading = phase { return true }
        return false
    }

    // MARK: Intents

    public func loadMore() throws {
        switch phase {
        case .loading: throw DirectoryError.alreadyLoading
        case .complete, .failed: return  // the footer's Retry button is the way out of .failed
        case .idle: start(page: nextPage)
        }
    }

    public func retry() {
        guard case .failed(let page) = phase else { return }
        start(page: page)
    }

    public func selectDepartment(_ newDepartment: String) {
        department = newDepartment
        rows = []
        seenIDs = []
        nextPage = 1
        replaceOnNextPage = false
        errorBanner = nil
        start(page: 1)  // the old request's answer no longer matches `phase` and is dropped
    }

    public func refresh() {
        nextPage = 1
        replaceOnNextPage = true
        errorBanner = nil
        start(page: 1)
    }

    // MARK: Loading

    private func start(page: Int) {
        let token = RequestToken()
        phase = .loading(token)
        service.fetchMembers(department: department, page: page) { [weak self] result in
            Self.processingQueue.async {
                let mapped = result.flatMap { data in
                    Result {
                        let batch = try JSONDecoder().decode(MemberBatch.self, from: data)
                        return (rows: batch.members.map(MemberRow.init), hasMore: batch.hasMore)
                    }
                }
                Task { @MainActor in
                    self?.finish(token: token, page: page, result: mapped)
                }
            }
        }
    }

    private func finish(
        token: RequestToken, page: Int,
        result: Result<(rows: [MemberRow], hasMore: Bool), any Error>
    ) {
        // Only the request we are waiting for: an older department's, a pre-refresh one,
        // or the same callback twice all fall out here.
        guard case .loading(let current) = phase, current == token else { return }

        switch result {
        case .success(let batch):
            if replaceOnNextPage {
                rows = []
                seenIDs = []
                replaceOnNextPage = false
            }
            for row in batch.rows where seenIDs.insert(row.id).inserted {
                rows.append(row)
            }
            nextPage = page + 1
            errorBanner = nil
            phase = batch.hasMore ? .idle : .complete
        case .failure(let error):
            phase = .failed(page: page)
            errorBanner = error is CancellationError
                ? "Loading was interrupted." : "Couldn't load the directory."
        }
    }
}
