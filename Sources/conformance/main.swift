import BundledImplementations
import ConformanceKit
import Foundation

// The main job: every bundled implementation against every contract of its family, as a
// matrix; exit status 0 exactly when every outcome matches the ledgers.

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "check-server": exit(await runServerCheck(arguments: arguments))
case "explore": exit(await runExplore(arguments: arguments))
case "report": exit(runReport(arguments: arguments))
case "sample-page": exit(runSamplePage(arguments: arguments))
case "--help", "-h", "help":
    print(CommandLineSyntax.usage)
    exit(0)
case "--list":
    guard arguments.count == 1 else {
        exit(CommandLineSyntax.fail(UsageError(description: "--list takes nothing else"), CommandLineSyntax.listSubcommand))
    }
    for contract in ContractCatalog.pager + ContractCatalog.writeQueue + ContractCatalog.server {
        print("\(contract.id)\t\(contract.name)\t\(contract.tier.rawValue)")
    }
    exit(0)
default:
    break
}

let options: CommandOptions
do {
    options = try CommandOptions(parsing: arguments)
} catch {
    FileHandle.standardError.write(Data("conformance: \(error)\n\n\(CommandLineSyntax.usage)\n".utf8))
    exit(2)
}
if options.help {
    print(CommandLineSyntax.usage)
    exit(0)
}
let worker = MatrixWorkerPlan.current
if worker == nil, let status = MatrixSupervisor.run(options) { exit(status) }

let run = await MatrixRun.execute(options, worker: worker)
if options.json {
    print(run.json())
} else {
    print(run.rendered(verbose: options.verbose))
}
if let htmlPath = options.htmlPath {
    guard writePage(run.reportDocument(), to: htmlPath, command: "conformance") else { exit(1) }
}
exit(run.succeeded ? 0 : 1)
