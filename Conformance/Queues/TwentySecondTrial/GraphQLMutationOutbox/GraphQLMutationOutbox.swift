import Foundation

// MARK: - Networking seam

struct GraphQLHTTPRequest: Sendable { var path = "/graphql"; var headers: [String: String]; var body: Data }
struct GraphQLHTTPResponse: Sendable { var statusCode: Int; var body: Data }

/// The app's GraphQL client: a URLSession-style completion-handler API that calls back on a
/// thread of its own choosing.
protocol GraphQLNetworkClient: Sendable {
    func perform(_ request: GraphQLHTTPRequest, completion: @escaping @Sendable (Result<GraphQLHTTPResponse, any Error>) -> Void)
}

enum Trial22GraphQLOutboxError: Error { case inputIsNotAnObject }

/// Capped exponential backoff: 2 s, 4 s, 8 s, 16 s, then 30 s for every later attempt.
struct MutationRetryPolicy: Sendable {
    var initialDelay: TimeInterval = 2
    var maximumDelay: TimeInterval = 30

    /// `attempt` is 1-based: the number of requests already sent for the mutation.
    func delay(afterAttempt attempt: Int) -> TimeInterval {
        // Clamp the exponent so a week offline cannot overflow into a zero or negative delay.
        let exponent = Double(min(max(attempt - 1, 0), 16))
        return min(maximumDelay, initialDelay * pow(2, exponent))
    }
}

// MARK: - Outbox

/// Owned by the app's session view model: queues GraphQL mutations made offline and replays them
/// with their `clientMutationId` (also sent as the `Idempotency-Key` header) until the server
/// answers. Each row carries its own due time; a sync skips rows that are not due yet.
@MainActor
final class GraphQLMutationOutbox {
    private let database: MutationDatabase
    private let client: any GraphQLNetworkClient
    private let now: @Sendable () -> Date
    private let retryPolicy: MutationRetryPolicy
    /// Rows with a request on the wire from this process. Never persisted: a crash clears it.
    private var inFlight: Set<Int64> = []
    private var log: [String] = []

    init(database: MutationDatabase, client: any GraphQLNetworkClient,
         now: @escaping @Sendable () -> Date = { Date() }, retryPolicy: MutationRetryPolicy = MutationRetryPolicy()) {
        self.database = database
        self.client = client
        self.now = now
        self.retryPolicy = retryPolicy
    }

    /// Stores the mutation before anything is sent. The body must be a JSON object: it becomes
    /// the mutation's `input` variable.
    @discardableResult
    func enqueue(label: String, mutationName: String, body: Data) throws -> Int64 {
        guard let input = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw Trial22GraphQLOutboxError.inputIsNotAnObject
        }
        let rowID = database.insert(label: label, mutationName: mutationName, input: input,
                                    clientMutationID: UUID().uuidString, createdAt: now())
        note("queued \(mutationName) \(label) as row \(rowID)")
        return rowID
    }

    /// One sync: sends every due mutation, newest first (the edit the user is looking at goes
    /// out before an old backlog), one request at a time.
    func syncPendingMutations() async {
        for candidate in database.pendingRows(dueBy: now()) {
            if Task.isCancelled { break }
            let rowID = candidate.rowID
            // Re-read: a sync running beside this one may have finished or rescheduled the row.
            guard !inFlight.contains(rowID), let row = database.row(rowID),
                  row.state == .pending, row.notBefore <= now() else { continue }
            let body: Data
            do {
                body = try Self.envelope(for: row)
            } catch {
                stop(rowID, label: row.label, reason: "could not encode the mutation's input")
                continue
            }
            // Take the lease before the first suspension point.
            inFlight.insert(rowID)
            let attempt = row.attempts + 1
            database.update(rowID) { $0.attempts = attempt }
            let request = GraphQLHTTPRequest(
                headers: ["Content-Type": "application/json", "Idempotency-Key": row.clientMutationID], body: body)
            do {
                let response = try await perform(request)
                inFlight.remove(rowID)
                handle(response, rowID: rowID, label: row.label, attempt: attempt)
            } catch {
                inFlight.remove(rowID)
                retryLater(rowID, label: row.label, attempt: attempt, because: "no response")
            }
        }
    }

    func diagnosticLines() -> [String] { log }

    // MARK: Request building

    /// `{"query": …, "variables": {"clientMutationId": …, "input": {…}}}`, keys sorted so every
    /// attempt (and every launch) produces the same bytes.
    nonisolated static func envelope(for row: MutationDatabase.Row) throws -> Data {
        let variables: [String: Any] = ["input": row.input, "clientMutationId": row.clientMutationID]
        let payload: [String: Any] = ["query": document(for: row.mutationName), "variables": variables]
        return try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
    }

    nonisolated static func document(for mutationName: String) -> String {
        let typeName = mutationName.prefix(1).uppercased() + mutationName.dropFirst()
        return "mutation \(typeName)($input: \(typeName)Input!, $clientMutationId: String!) "
            + "{ \(mutationName)(input: $input, clientMutationId: $clientMutationId) { clientMutationId } }"
    }

    // MARK: Answers

    private func perform(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        let client = self.client
        return try await withCheckedThrowingContinuation { continuation in
            client.perform(request) { result in
                continuation.resume(with: result)
            }
        }
    }

    private func handle(_ response: GraphQLHTTPResponse, rowID: Int64, label: String, attempt: Int) {
        let status = response.statusCode
        switch status {
        case 200..<300:
            if Self.containsGraphQLErrors(response.body) {
                stop(rowID, label: label, reason: "HTTP \(status) with GraphQL errors")
            } else {
                database.delete(rowID)
                note("\(label) applied on attempt \(attempt)")
            }
        case 409:
            stop(rowID, label: label, reason: "HTTP 409: clientMutationId already used with another input")
        case 408, 429:
            retryLater(rowID, label: label, attempt: attempt, because: "HTTP \(status)")
        case 400..<500:
            stop(rowID, label: label, reason: "HTTP \(status): mutation rejected")
        default:  // 3xx, 5xx: the server may or may not have applied it
            retryLater(rowID, label: label, attempt: attempt, because: "HTTP \(status)")
        }
    }

    nonisolated static func containsGraphQLErrors(_ body: Data) -> Bool {
        guard !body.isEmpty,
              let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let errors = object["errors"] as? [Any]
        else { return false }
        return !errors.isEmpty
    }

    private func retryLater(_ rowID: Int64, label: String, attempt: Int, because reason: String) {
        let delay = retryPolicy.delay(afterAttempt: attempt)
        let due = now().addingTimeInterval(delay)
        database.update(rowID) { $0.notBefore = due }
        note("\(label) \(reason) on attempt \(attempt); next try in \(Int(delay.rounded(.up))) s")
    }

    private func stop(_ rowID: Int64, label: String, reason: String) {
        database.update(rowID) { $0.state = .needsAttention; $0.failureReason = reason }
        note("\(label) needs attention: \(reason)")
    }

    private func note(_ line: String) {
        log.append(line)
        if log.count > 500 { log.removeFirst(log.count - 500) }
    }
}
