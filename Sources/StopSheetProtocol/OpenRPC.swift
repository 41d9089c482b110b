import StopSheetCore

/// The OpenRPC document `rpc.discover` answers (https://spec.open-rpc.org): the JSON-RPC
/// ecosystem's service description, which generic tools and client generators read. Made from
/// `RPCMethod.all` and `ErrorCode`, so it cannot drift from what the daemon serves.
public enum OpenRPC {
    public static let specVersion = "1.3.2"

    public static func document(version: String) -> JSON {
        func error(_ code: ErrorCode) -> JSON { ["code": .int(code.rawValue), "message": .string(code.message)] }
        func method(_ method: RPCMethod) -> JSON {
            [
                "name": .string(method.name),
                "summary": .string(method.summary),
                "paramStructure": "by-name",
                "params": .array(method.params.map { ["name": .string($0.name), "required": .bool($0.required), "schema": $0.type.schema] }),
                "result": ["name": .string(method.result.name), "schema": method.result.type.schema],
                "errors": .array((ErrorCode.anyRequest + method.errors).map(error)),
            ]
        }
        return [
            "openrpc": .string(specVersion),
            "info": ["title": "stopsheetd", "version": .string(version)],
            "methods": .array(RPCMethod.all.filter { $0 != .discover }.map(method)),
        ]
    }
}
