import StopSheetCore

/// The OpenRPC document `rpc.discover` answers (https://spec.open-rpc.org): the JSON-RPC
/// ecosystem's service description, which generic tools and client generators read. Made from
/// `RPCMethod.all` (the method types, their params through `ParamsShape`), `ErrorCode` and the
/// answer types (`Answer`, through `AnswerSchemas`), so it cannot drift from what the daemon
/// serves. Every result object is one of `components/schemas`;
/// the notifications, which OpenRPC has no place for, are under `x-notifications`, each with the
/// schema of its params.
public enum OpenRPC {
    public static let specVersion = "1.3.2"
    /// The extension member that lists the notifications (OpenRPC allows `x-` members anywhere).
    public static let notificationsMember = "x-notifications"

    /// The document, the same from every build of one contract: `info.version` is the protocol's
    /// (`ProtocolVersion`), not the daemon's release, so docs/openrpc.json changes with the wire alone.
    public static var document: JSON {
        var schemas = AnswerSchemas()
        func error(_ code: ErrorCode) -> JSON { ["code": .int(code.rawValue), "message": .string(code.message)] }
        func schema(_ type: AnswerType) -> JSON {
            switch type {
            case .object(let object):
                // The answer types are the contract: one whose schema cannot be read is a bug of this
                // build, which OpenRPCDocumentTests meets first, not something to serve half-described.
                do { return try schemas.reference(object) } catch { preconditionFailure("the schema of \(object) cannot be read off its type: \(error)") }
            case .bool: return ["type": "boolean"]
            case .openRPC: return ["type": "object", "description": "An OpenRPC document (https://spec.open-rpc.org)."]
            }
        }
        func method(_ method: RPCMethod) -> JSON {
            [
                "name": .string(method.name),
                "summary": .string(method.summary),
                "paramStructure": "by-name",
                "params": .array(method.params.map { ["name": .string($0.name), "required": .bool($0.required), "schema": $0.schema] }),
                "result": ["name": .string(method.result.name), "schema": schema(method.result.type)],
                "errors": .array((ErrorCode.anyRequest + method.errors).map(error)),
            ]
        }
        let methods = RPCMethod.all.filter { $0.name != Methods.Discover.name }.map(method)
        let notifications = Notifications.all.map { notification -> JSON in
            ["name": .string(notification.name), "summary": .string(notification.summary), "params": schema(.object(notification.paramsType))]
        }
        return [
            "openrpc": .string(specVersion),
            "info": ["title": "stopsheetd", "version": .string(ProtocolVersion.text)],
            "methods": .array(methods),
            "components": ["schemas": .object(schemas.components)],
            notificationsMember: .array(notifications),
        ]
    }
}
