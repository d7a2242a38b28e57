import Foundation
import HTMLReport

/// Writes `document` as a report page at `path` and says so on standard error (standard output
/// stays the matrix or the JSON).
///
/// - Returns: `false`, after printing the error, when the file cannot be written.
func writePage(_ document: ReportDocument, to path: String, command: String) -> Bool {
    let url = URL(fileURLWithPath: path)
    do {
        try ReportPageWriter().write(document, to: url)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        FileHandle.standardError.write(
            Data("\(command): wrote \(path) (\(document.cells.count) cells, \(size / 1024) KB)\n".utf8))
        return true
    } catch {
        FileHandle.standardError.write(Data("\(command): cannot write \(path): \(error)\n".utf8))
        return false
    }
}
