import Foundation

/// One option a subcommand takes, as the usage text lists it and the parser reads it.
struct CommandOption {
    /// What follows the option's name on the command line.
    enum Value {
        /// Nothing: the option is a switch.
        case none
        /// Any text, shown in the usage as the placeholder (`PATH`, `NAME`).
        case text(String)
        /// A whole number above zero.
        case positiveNumber(String)
        /// A whole number of zero or more (a seed).
        case unsignedNumber(String)
    }

    /// The option's spellings, the long one first: `["--verbose", "-v"]`.
    let names: [String]
    let value: Value
    /// One line for the usage text.
    let help: String

    init(_ names: String..., value: Value = .none, help: String) {
        self.names = names
        self.value = value
        self.help = help
    }

    /// `--html PATH`, as the usage text shows it.
    var spelling: String {
        switch value {
        case .none: names.joined(separator: ", ")
        case .text(let placeholder), .positiveNumber(let placeholder), .unsignedNumber(let placeholder):
            "\(names[0]) \(placeholder)"
        }
    }
}

/// A subcommand of `conformance`: its name, what it does and what it takes. The one parser
/// (``ParsedArguments/init(_:for:)``) and the one usage text (``CommandLineSyntax/usage``) are
/// both read from these.
struct Subcommand {
    /// The word after `conformance`, or `nil` for the main job (the matrix).
    let name: String?
    /// The synopsis lines, without the leading `conformance`.
    let synopsis: [String]
    /// One or two sentences on what it does.
    let summary: String
    let options: [CommandOption]
    /// The placeholder of the one positional argument it takes, if any (`EVENTS.jsonl`).
    let positional: String?

    init(name: String?, synopsis: [String], summary: String, options: [CommandOption], positional: String? = nil) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.options = options + [CommandOption("--help", "-h", help: "print this text")]
        self.positional = positional
    }

    /// This subcommand's usage text.
    var usage: String {
        let width = max(24, (options.map(\.spelling.count).max() ?? 0) + 2)
        let lines = synopsis.enumerated().map { index, line in
            (index == 0 ? "usage: " : "       ") + "conformance " + line
        }
        let optionLines = options.map { option in
            "  " + option.spelling.padding(toLength: width, withPad: " ", startingAt: 0) + option.help
        }
        return (lines + ["", summary, ""] + optionLines).joined(separator: "\n")
    }
}

/// A mistake on the command line, said in one line; the command prints it with its usage and
/// exits with status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// The arguments of one subcommand, checked against its options.
struct ParsedArguments {
    private var values: [String: [String]] = [:]
    private var switches: Set<String> = []
    /// The positional argument, if the subcommand takes one and it was given.
    private(set) var positional: String?

    /// Reads `arguments` (everything after the subcommand's name) for `command`.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or malformed value, or a
    ///   positional argument the subcommand does not take.
    init(_ arguments: some Sequence<String>, for command: Subcommand) throws(UsageError) {
        var remaining = Array(arguments)[...]
        while let argument = remaining.popFirst() {
            guard let option = command.options.first(where: { $0.names.contains(argument) }) else {
                guard command.positional != nil, positional == nil, !argument.hasPrefix("-") else {
                    throw UsageError(description: "unknown argument \"\(argument)\"")
                }
                positional = argument
                continue
            }
            let key = option.names[0]
            switch option.value {
            case .none:
                switches.insert(key)
            case .text(let placeholder):
                guard let value = remaining.popFirst() else {
                    throw UsageError(description: "\(key) needs a \(placeholder)")
                }
                values[key, default: []].append(value)
            case .positiveNumber:
                guard let value = remaining.popFirst(), let number = Int(value), number > 0 else {
                    throw UsageError(description: "\(key) needs a positive number")
                }
                values[key, default: []].append(String(number))
            case .unsignedNumber:
                guard let value = remaining.popFirst(), let number = UInt64(value) else {
                    throw UsageError(description: "\(key) needs a number of 0 or more")
                }
                values[key, default: []].append(String(number))
            }
        }
    }

    /// Whether the switch `name` (its long spelling) was given.
    func isSet(_ name: String) -> Bool { switches.contains(name) }

    /// The last value given for `name`, if any.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The last value of a number option (already checked by the parser).
    func number(_ name: String) -> Int? { value(name).flatMap { Int($0) } }
}

/// Every subcommand, and the usage text that lists them all.
enum CommandLineSyntax {
    /// The subcommands, the main job first.
    static let subcommands: [Subcommand] = [
        CommandOptions.subcommand, listSubcommand, exploreSubcommand, reportSubcommand, samplePageSubcommand,
        serverCheckSubcommand,
    ]

    /// `conformance --list`, kept as a subcommand of its own in the usage text.
    static let listSubcommand = Subcommand(
        name: "--list", synopsis: ["--list"],
        summary: "One line per contract: ID, name, tier (tab-separated).", options: [])

    /// `conformance --help`: every subcommand, with its options.
    static var usage: String {
        let synopsis = subcommands.flatMap(\.synopsis).enumerated().map { index, line in
            (index == 0 ? "usage: " : "       ") + "conformance " + line
        }
        let sections = subcommands.map { command in
            let width = max(24, (command.options.map(\.spelling.count).max() ?? 0) + 2)
            let title = command.name.map { "conformance \($0)" } ?? "conformance (the matrix, the main job)"
            let options = command.options.filter { $0.names[0] != "--help" }.map { option in
                "    " + option.spelling.padding(toLength: width, withPad: " ", startingAt: 0) + option.help
            }
            let summary = command.summary.split(separator: "\n").map { "    \($0)" }
            return ([title] + summary + options).joined(separator: "\n")
        }
        return (synopsis + [""] + sections.flatMap { [$0, ""] } + ["Each subcommand also takes --help."])
            .joined(separator: "\n")
    }

    /// Prints `error` and the command's usage on standard error; returns exit status 2.
    static func fail(_ error: UsageError, _ command: Subcommand) -> Int32 {
        let name = command.name.map { "conformance \($0)" } ?? "conformance"
        FileHandle.standardError.write(Data("\(name): \(error)\n\n\(command.usage)\n".utf8))
        return 2
    }
}
