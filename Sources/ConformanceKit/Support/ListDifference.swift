/// Renders a `-`/`+` difference between two lists, one element a line.
///
/// - Parameters:
///   - expected: The list the contract expected.
///   - actual: The list the implementation showed.
/// - Returns: The lines that differ, prefixed with `-` (missing) or `+` (unexpected), or
///   `nil` when the lists are equal.
package func listDifference<Element: Hashable & CustomStringConvertible>(
    expected: [Element], actual: [Element]
) -> String? {
    guard expected != actual else { return nil }
    let difference = actual.difference(from: expected)
    var lines: [String] = []
    for change in difference {
        switch change {
        case .remove(let offset, let element, _):
            lines.append("- \(element)  (position \(offset + 1) expected)")
        case .insert(let offset, let element, _):
            lines.append("+ \(element)  (position \(offset + 1) shown)")
        }
    }
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
}
