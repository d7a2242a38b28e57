import ConformanceKit
import Foundation

/// Canonical forms the kit already computed, so that reading a body as a JSON value costs one
/// dictionary lookup after the first time.
///
/// The harness compares every body as a JSON value (``RequestLayout/normalize(_:)``), after
/// every step and for every stored task, and the in-process server compares a resend's body
/// with the first; a schedule meets the same few bodies again and again, and re-parsing and
/// re-encoding them was most of a queue schedule's time (45% of the explorer's samples on
/// `TicketOutbox`). The cache holds pure results only: a form depends on the body's bytes and
/// on the layout, never on the run, so it changes no verdict. It starts over when it grows
/// past ``limit`` entries, which keeps a long exploration's memory flat.
final class CanonicalFormCache: Sendable {
    /// The cache the kit uses.
    static let shared = CanonicalFormCache()

    /// The most entries kept before the cache starts over.
    static let limit = 8192

    /// Which canonical form of a body.
    enum Form: Hashable, Sendable {
        /// The operation's body and the key found in the body, read through a layout.
        case operation(RequestLayout)
        /// The whole body as the kit's canonical JSON.
        case body
        /// The whole body as the in-process server's canonical JSON.
        case ledger
    }

    /// One computed form: the key found in the body (``Form/operation(_:)`` only) and the
    /// canonical body, `nil` when the body is not JSON.
    struct Entry: Sendable {
        var key: String?
        var body: Data?
    }

    private struct Key: Hashable {
        let form: Form
        let body: Data

        /// Every byte of the body. `Data`'s own hash reads only its first bytes, and bodies
        /// that share a long prefix (a GraphQL envelope's query text) then all collide: with a
        /// few thousand entries each lookup compared them one by one, and 600 schedules of
        /// `GraphQLOutbox` took 31 s against 1.4 s for 100.
        func hash(into hasher: inout Hasher) {
            hasher.combine(form)
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private let entries = Locked(rawValue: [Key: Entry]())

    /// The `form` of `body`, computed by `compute` the first time.
    func entry(_ form: Form, of body: Data, compute: () -> Entry) -> Entry {
        let key = Key(form: form, body: body)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let computed = compute()
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = computed
        }
        return computed
    }
}
