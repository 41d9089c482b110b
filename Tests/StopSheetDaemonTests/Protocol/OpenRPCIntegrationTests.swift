import Foundation
import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
import Testing

/// `rpc.discover` through the real binary, held against protocol.md: the methods its headings
/// name (`### \`name {param, optional?}\``), their params, and the error table's codes and
/// messages. The document is made from `RPCMethod.all` and `ErrorCode`, which the daemon's
/// handlers and the client use too, so this is where the page and the code meet.
@Suite struct OpenRPCIntegrationTests {
    struct DocumentedMethod: Equatable, CustomStringConvertible {
        var name: String
        /// Param name → required.
        var params: [String: Bool]
        var description: String { "\(name) \(params.sorted { $0.key < $1.key })" }
    }

    static let page = try! String(contentsOfFile: Fixtures.packageRoot + "/protocol.md", encoding: .utf8)

    static var documentedMethods: [DocumentedMethod] {
        let heading = /^### `([A-Za-z.]+)(?: \{([^}]*)\})?`$/
        return page.split(separator: "\n").compactMap { line in
            guard let match = try? heading.wholeMatch(in: line) else { return nil }
            let params = (match.2.map(String.init) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return DocumentedMethod(name: String(match.1), params: Dictionary(uniqueKeysWithValues: params.map {
                $0.hasSuffix("?") ? (String($0.dropLast()), false) : ($0, true)
            }))
        }
    }

    /// The error table's rows: code → message.
    static var documentedErrors: [Int: String] {
        let row = /^\| (-32\d\d\d) \| ([^|]+) \|/
        return Dictionary(uniqueKeysWithValues: page.split(separator: "\n").compactMap { line in
            (try? row.prefixMatch(in: line)).map { (Int($0.1)!, $0.2.trimmingCharacters(in: .whitespaces)) }
        })
    }

    @Test func theDaemonsDescriptionListsWhatProtocolMdDocuments() throws {
        let daemon = try DaemonProcess(["--demo"])
        let document = try daemon.result("rpc.discover")
        #expect(document["openrpc"] == "1.3.2" && document["info"]?["version"] == "2.5")
        // The contract as reviewed: what the daemon serves is the committed file (OpenRPCDocumentTests
        // holds the file to the types).
        let committed = try JSONParser.parse(String(contentsOfFile: Fixtures.packageRoot + "/docs/openrpc.json", encoding: .utf8))
        #expect(document == committed, "the served document differs from docs/openrpc.json")
        let methods = try #require(document["methods"]?.arrayValue)
        let described = methods.map { method in
            DocumentedMethod(name: method["name"]?.stringValue ?? "?", params: Dictionary(uniqueKeysWithValues: (method["params"]?.arrayValue ?? []).map {
                ($0["name"]?.stringValue ?? "?", $0["required"]?.boolValue ?? false)
            }))
        }
        let documented = Self.documentedMethods
        #expect(documented.contains { $0.name == "rpc.discover" }, "protocol.md documents rpc.discover")
        #expect(described.sorted { $0.name < $1.name } == documented.filter { $0.name != "rpc.discover" }.sorted { $0.name < $1.name },
                "rpc.discover: \(described); protocol.md: \(documented)")

        let errors = Self.documentedErrors
        #expect(!errors.isEmpty, "protocol.md's error table was not found")
        var codes: [Int: String] = [:]
        for method in methods {
            for error in method["errors"]?.arrayValue ?? [] { codes[error["code"]?.intValue ?? 0] = error["message"]?.stringValue }
            #expect(method["paramStructure"] == "by-name" && method["result"]?["schema"] != nil, "\(method.encodedString)")
        }
        #expect(codes == errors, "codes in rpc.discover: \(codes.sorted { $0.key < $1.key }); protocol.md: \(errors.sorted { $0.key < $1.key })")
        #expect(Dictionary(uniqueKeysWithValues: ErrorCode.allCases.map { ($0.rawValue, $0.message) }) == errors, "ErrorCode is the table")
    }

    @Test func everyDescribedMethodIsServedAndEveryServedOneDescribed() throws {
        let daemon = try DaemonProcess(["--demo"])
        let served = try #require(daemon.result("stats")["requests"]?.objectValue).keys.filter { $0 != "unknown" }
        #expect(served.sorted() == RPCMethod.all.map(\.name).sorted(), "stats counts the methods the daemon registered")
    }
}
