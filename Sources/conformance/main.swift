import BundledImplementations
import ConformanceKit
import Foundation

// The main job: every bundled implementation against every contract of its family, as a
// matrix; exit status 0 exactly when every outcome matches the ledgers.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "check-server" {
    exit(await runServerCheck(arguments: arguments))
}
if arguments.first == "explore" { exit(await runExplore(arguments: arguments)) }
if arguments.first == "report" { exit(runReport(arguments: arguments)) }
if arguments.first == "sample-page" { exit(runSamplePage(arguments: arguments)) }
let options: CommandOptions
do {
    options = try CommandOptions(parsing: arguments)
} catch {
    FileHandle.standardError.write(Data("conformance: \(error)\n\n\(CommandOptions.usage)\n".utf8))
    exit(2)
}

switch options.command {
case .help:
    print(CommandOptions.usage)
case .list:
    for contract in ContractCatalog.pager + ContractCatalog.writeQueue + ContractCatalog.server {
        print("\(contract.id)\t\(contract.name)\t\(contract.tier.rawValue)")
    }
case .matrix:
    let run = await MatrixRun.execute(options)
    if options.json {
        print(run.json())
    } else {
        print(run.rendered(verbose: options.verbose))
    }
    if let htmlPath = options.htmlPath {
        guard writePage(run.reportDocument(), to: htmlPath, command: "conformance") else { exit(1) }
    }
    exit(run.succeeded ? 0 : 1)
}
