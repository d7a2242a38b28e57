// From an outside trial (trial 36): written from the docs alone by an author who had read only
// the kit's README, Docs and public API; bundled as written, with its names changed only.

import Foundation

/// What kind of change a technician made to a work order.
public enum WorkOrderChangeType: String, Codable, Sendable {
    case note
    case statusChange = "status_change"
}

/// A request as the outbox builds it; the app's transport turns it into a `URLRequest`.
public struct WorkOrderOutboxRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: Data
}

public struct WorkOrderOutboxResponse: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// Sends one request. Throws for transport failures (offline, timeout, connection lost).
public typealias WorkOrderOutboxTransport = @Sendable (WorkOrderOutboxRequest) async throws -> WorkOrderOutboxResponse

/// Exponential backoff with jitter, capped.
public struct WorkOrderOutboxBackoffPolicy: Sendable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(2), cap: Duration = .seconds(60)) {
        self.base = base
        self.cap = cap
    }

    /// The delay before attempt `failedAttempts + 1`; `unit` is a random number in 0..<1.
    /// "Equal jitter": half the exponential delay plus a random share of the other half.
    public func delay(afterFailedAttempts failedAttempts: Int, unit: Double) -> TimeInterval {
        let baseSeconds = base.workOrderSeconds
        let capSeconds = cap.workOrderSeconds
        let exponent = min(max(failedAttempts - 1, 0), 20)  // 2^20 * base is far past any cap
        let exponential = min(capSeconds, baseSeconds * pow(2, Double(exponent)))
        let jitter = min(max(unit, 0), 1)
        return exponential / 2 + exponential / 2 * jitter
    }
}

extension Duration {
    var workOrderSeconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}

/// The state of a stored change, as the "Pending sync" screen shows it.
public struct WorkOrderOutboxChangeSummary: Sendable, Equatable {
    public enum State: String, Codable, Sendable { case pending, needsAttention = "needs_attention" }

    public var changeID: UUID
    public var reference: String
    public var workOrderID: String
    public var changeType: WorkOrderChangeType
    public var state: State
    public var attempts: Int
    public var createdAt: Date
    public var nextAttemptAt: Date?
    public var problem: String?
    public var requestBody: Data
}

enum WorkOrderOutboxCoding {
    /// The wire format agreed with the backend team: snake_case names (spelled out in
    /// `CodingKeys`, so the app's payload keys are left alone), ISO 8601 dates, sorted keys.
    static func wireEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The on-disk format of a pending change: dates as raw numbers (no precision lost for
    /// due times).
    static func fileEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func fileDecoder() -> JSONDecoder { JSONDecoder() }

    /// Keeps only a machine-readable error code from a server error body (never its message,
    /// which may quote what the technician typed).
    static func errorCode(in body: Data) -> String? {
        guard !body.isEmpty,
              let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return nil }
        for field in ["error", "code", "error_code"] {
            if let code = object[field] as? String, code.count <= 64,
               code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }) {
                return code
            }
        }
        return nil
    }
}

/// The JSON body sent to `POST /v1/work-orders/{id}/changes`.
struct WorkOrderChangeEnvelope<Payload: Encodable>: Encodable {
    var workOrderID: String
    var changeType: WorkOrderChangeType
    var recordedAt: Date
    var clientReference: String
    var payload: Payload

    enum CodingKeys: String, CodingKey {
        case workOrderID = "work_order_id"
        case changeType = "change_type"
        case recordedAt = "recorded_at"
        case clientReference = "client_reference"
        case payload
    }
}
