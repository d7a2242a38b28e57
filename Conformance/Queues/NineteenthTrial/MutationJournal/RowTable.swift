import Foundation

/// A tiny row store in the shape of our old SQLite table `pending_mutations`:
/// one file per row (`<rowid>.row`, written atomically) and a `sequence` file
/// for the autoincrement counter. It replaced GRDB in the share extension
/// build, where we could not link the C library.
struct RowTable<Row: Codable & Sendable>: Sendable {
    let directory: URL

    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private var sequenceURL: URL { directory.appendingPathComponent("sequence") }

    private func url(for rowID: Int64) -> URL {
        directory.appendingPathComponent("\(rowID).row")
    }

    /// `INSERT`: reserves the next row ID and writes the row built for it.
    func insert(_ make: (Int64) -> Row) throws -> Int64 {
        let last = (try? String(contentsOf: sequenceURL, encoding: .utf8)).flatMap { Int64($0) } ?? 0
        let rowID = last + 1
        try Data(String(rowID).utf8).write(to: sequenceURL, options: .atomic)
        try write(make(rowID), rowID: rowID)
        return rowID
    }

    /// `UPDATE … WHERE rowid = ?`
    func write(_ row: Row, rowID: Int64) throws {
        let data = try JSONEncoder().encode(row)
        try data.write(to: url(for: rowID), options: .atomic)
    }

    /// `DELETE … WHERE rowid = ?`
    func delete(rowID: Int64) throws {
        try? FileManager.default.removeItem(at: url(for: rowID))
    }

    /// `SELECT rowid, * FROM …`
    func selectAll() throws -> [(rowID: Int64, row: Row)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let decoder = JSONDecoder()
        return try names.compactMap { name -> (Int64, Row)? in
            guard name.hasSuffix(".row"), let rowID = Int64(name.dropLast(4)) else { return nil }
            let data = try Data(contentsOf: url(for: rowID))
            return (rowID, try decoder.decode(Row.self, from: data))
        }
    }
}
