import Foundation

@main
enum DataModelGeneratorCommand {
    static func main() throws {
        let text = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)
        let file = try IDLParser.parse(text)
        print(file.clusters.count, file.enums.count, file.structs.count)
    }
}
