import Foundation
import HomeCommandLine

let output = await HomeCommand.run(
    Array(CommandLine.arguments.dropFirst()),
    progress: { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    },
    output: { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    })
FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
FileHandle.standardError.write(Data(output.standardError.utf8))
exit(output.exitCode)
