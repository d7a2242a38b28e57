import Foundation

/// Lines in the shape Swift Testing 6.3 writes with `--event-stream-version 0` (taken from a
/// real run of this package, shortened), to build streams for the reader's tests.
enum EventStreamFixture {
    static func test(_ id: String, name: String, parameterized: Bool = true) -> String {
        #"{"kind":"test","payload":{"id":"\#(id)","isParameterized":\#(parameterized),"kind":"function","name":"\#(name)","sourceLocation":{"column":2,"fileID":"MyAppTests/PagerTests.swift","line":12}},"version":0}"#
    }

    static let runStarted =
        #"{"kind":"event","payload":{"instant":{"absolute":10.0,"since1970":1796117416.3},"kind":"runStarted","messages":[{"symbol":"default","text":"Test run started."},{"symbol":"details","text":"Testing Library Version: 6.3.1 (937120cbc281cf2)"}]},"version":0}"#

    static let runEnded =
        #"{"kind":"event","payload":{"instant":{"absolute":12.5,"since1970":1796117418.8},"kind":"runEnded","messages":[{"symbol":"fail","text":"Test run with 2 tests failed."}]},"version":0}"#

    static func caseStarted(_ id: String, _ displayName: String) -> String {
        #"{"kind":"event","payload":{"_testCase":{"displayName":\#(json(displayName)),"id":"x"},"kind":"testCaseStarted","messages":[],"testID":"\#(id)"},"version":0}"#
    }

    static func issue(_ id: String, _ displayName: String?, _ text: String, known: Bool = false) -> String {
        let testCase = displayName.map { #""_testCase":{"displayName":\#(json($0)),"id":"x"},"# } ?? ""
        let symbol = known ? "passWithKnownIssue" : "fail"
        return
            #"{"kind":"event","payload":{"_comments":[\#(json(text))],\#(testCase)"issue":{"isKnown":\#(known),"sourceLocation":{"column":5,"fileID":"MyAppTests/PagerTests.swift","line":14}},"kind":"issueRecorded","messages":[{"symbol":"\#(symbol)","text":"Issue recorded"},{"symbol":"details","text":\#(json(text))}],"testID":"\#(id)"},"version":0}"#
    }

    static func attachment(_ id: String, _ displayName: String?, name: String, text: String) -> String {
        let testCase = displayName.map { #""_testCase":{"displayName":\#(json($0)),"id":"x"},"# } ?? ""
        let bytes = Data(text.utf8).base64EncodedString()
        return
            #"{"kind":"event","payload":{\#(testCase)"attachment":{"_bytes":"\#(bytes)","_preferredName":\#(json(name))},"kind":"valueAttached","messages":[],"testID":"\#(id)"},"version":0}"#
    }

    static func stream(_ lines: [String]) -> Data {
        Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    private static func json(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
