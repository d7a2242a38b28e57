/// The distinct texts of a page's details, each written once and referred to by its number.
struct StringTable {
    private(set) var values: [String] = []
    private var numbers: [String: Int] = [:]

    /// The number of `text`, adding it the first time it is seen.
    mutating func number(_ text: String) -> Int {
        if let number = numbers[text] { return number }
        numbers[text] = values.count
        values.append(text)
        return values.count - 1
    }
}
