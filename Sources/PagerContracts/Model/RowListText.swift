/// How messages and timelines list rows: in order, with each run of ten or more consecutive
/// IDs written as its ends (`100…399`), so a page of 300 rows reads as one entry and a repeat
/// in it stands out.
package enum RowListText {
    /// `items` in order, as `[1, 2, 100…399, 1]`; an item without an ID keeps its description.
    package static func text<Item>(
        _ items: [Item], id: (Item) -> Int?, description: (Item) -> String
    ) -> String {
        var parts: [String] = []
        var index = items.startIndex
        while index < items.endIndex {
            guard let first = id(items[index]) else {
                parts.append(description(items[index]))
                index += 1
                continue
            }
            var end = index + 1
            while end < items.endIndex, id(items[end]) == first + (end - index) { end += 1 }
            if end - index >= shortestRun {
                parts.append("\(first)…\(first + (end - index) - 1)")
                index = end
            } else {
                parts.append(description(items[index]))
                index += 1
            }
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    /// `ids` in order, as `[1, 2, 100…399, 1]`.
    package static func text(_ ids: [Int]) -> String {
        text(ids, id: { $0 }, description: String.init)
    }

    /// The shortest run written as its ends: shorter runs read better in full.
    private static let shortestRun = 10
}
