import Foundation

/// One item of a page as the kit's scripted server sends it.
///
/// The kit identifies rows by an integer; an adapter maps each row to its own item type and
/// ID type (`Int`, `String`, `UUID`, …) and tells the kit how, with
/// ``PagerModelAdapter/itemID(for:)``.
public struct PageRow: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// The row's identity on the kit's server.
    public let id: Int

    /// How many times the kit served this row before, in this timeline: a row served again
    /// (a duplicate on a later page, or after a refresh) comes back edited, as a row whose like
    /// count changed between two fetches does. Its ``title`` shows it, so an adapter that maps
    /// the title gets a row that is equal by ID and differs in content.
    public let revision: Int

    /// Creates a row served for the first time.
    public init(id: Int) {
        self.init(id: id, revision: 0)
    }

    /// Creates a row served `revision` times before.
    public init(id: Int, revision: Int) {
        self.id = id
        self.revision = revision
    }

    /// A display title: `Item 12`, and `Item 12 (edit 1)` when served again.
    public var title: String { revision == 0 ? "Item \(id)" : "Item \(id) (edit \(revision))" }

    /// A string identity derived from the row, `item-12`, for adapters whose IDs are strings.
    public var stringID: String { "item-\(id)" }

    /// A UUID derived from the row (`00000000-0000-0000-0000-000000000012`), for adapters
    /// whose IDs are UUIDs. The same row always gives the same UUID.
    public var uuid: UUID {
        let digits = String(id)
        let padded = String(repeating: "0", count: max(0, 12 - digits.count)) + digits
        return UUID(uuidString: "00000000-0000-0000-0000-\(padded.suffix(12))")!
    }

    public var description: String { String(id) }
}
