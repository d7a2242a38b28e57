import Foundation

/// What kind of change a row describes. Updates name the contact they edit.
enum ChangeKind: Hashable, Sendable {
    case create
    case update(contactID: String)

    var contactID: String? {
        if case .update(let id) = self { return id }
        return nil
    }
}

/// A saved row, as the store keeps it.
struct ChangeRow: Sendable {
    let objectID: UUID
    var label: String
    var kind: ChangeKind
    var idempotencyKey: String
    var body: Data
    var createdAt: Date
    var attempts: Int
    var dueAt: Date
    /// The launch whose sync took this row to the server, while its answer is awaited.
    var sendingLaunch: Int?
    var stopReason: String?
}

/// The persistent store: it only ever holds what a context saved. It outlives every context,
/// as the SQLite file outlives the process.
final class PersistentStore: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [UUID: ChangeRow] = [:]

    init() {}

    func fetchAll() -> [ChangeRow] {
        lock.withLock { rows.values.sorted { $0.createdAt < $1.createdAt } }
    }

    /// Applies one save: inserted and updated rows replace their stored versions, deleted rows go.
    func commit(upserts: [ChangeRow], deletes: Set<UUID>) throws {
        lock.withLock {
            for row in upserts { rows[row.objectID] = row }
            for id in deletes { rows[id] = nil }
        }
    }
}

/// A managed object: edits mark it dirty, and only a save makes them durable.
final class ContactPendingChange {
    private(set) var row: ChangeRow
    private(set) var isDirty = false

    init(row: ChangeRow, isInserted: Bool) {
        self.row = row
        self.isDirty = isInserted
    }

    var objectID: UUID { row.objectID }
    var label: String { get { row.label } set { row.label = newValue; isDirty = true } }
    var kind: ChangeKind { row.kind }
    var idempotencyKey: String { row.idempotencyKey }
    var body: Data { get { row.body } set { row.body = newValue; isDirty = true } }
    var createdAt: Date { row.createdAt }
    var attempts: Int { get { row.attempts } set { row.attempts = newValue; isDirty = true } }
    var dueAt: Date { get { row.dueAt } set { row.dueAt = newValue; isDirty = true } }
    var sendingLaunch: Int? { get { row.sendingLaunch } set { row.sendingLaunch = newValue; isDirty = true } }
    var stopReason: String? { get { row.stopReason } set { row.stopReason = newValue; isDirty = true } }

    func didSave() { isDirty = false }
}

/// A context over the store, confined to the sync engine (its "private queue").
final class ManagedContext {
    private let store: PersistentStore
    private(set) var registered: [ContactPendingChange]
    private var deleted: Set<UUID> = []

    init(store: PersistentStore) {
        self.store = store
        registered = store.fetchAll().map { ContactPendingChange(row: $0, isInserted: false) }
    }

    var hasChanges: Bool { !deleted.isEmpty || registered.contains(where: \.isDirty) }

    @discardableResult
    func insert(_ row: ChangeRow) -> ContactPendingChange {
        let change = ContactPendingChange(row: row, isInserted: true)
        registered.append(change)
        return change
    }

    func delete(_ change: ContactPendingChange) {
        registered.removeAll { $0 === change }
        deleted.insert(change.objectID)
    }

    func save() throws {
        guard hasChanges else { return }
        let dirty = registered.filter(\.isDirty)
        try store.commit(upserts: dirty.map(\.row), deletes: deleted)
        dirty.forEach { $0.didSave() }
        deleted.removeAll()
    }
}
