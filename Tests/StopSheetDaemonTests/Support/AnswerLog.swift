import Foundation
import StopSheetCore
import StopSheetProtocol

/// Every result and notification the tests' clients receive, written down for the check against
/// the served OpenRPC document (Tests/OpenRPC/validate.py): one JSON line each,
/// `{"method", "result"}` or `{"notification", "params"}`, appended to this process's file in
/// `STOPSHEET_ANSWER_LOG` when that is set (scripts/swift-tests.py sets it for the integration
/// run), and kept in memory for a test that checks its own (`AnswerSchemaIntegrationTests`).
enum AnswerLog {
    private static let directory = ProcessInfo.processInfo.environment["STOPSHEET_ANSWER_LOG"]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [String] = []

    /// What has been recorded in this process so far, as lines.
    static var lines: [String] { lock.withLock { kept } }

    static func result(_ result: JSON, of method: String) {
        write(["method": .string(method), "result": result])
    }

    /// A request line and its answer line, batches too: each member with a result whose request,
    /// matched by id, named a method.
    static func answer(_ answer: JSON, to requestLine: String) {
        guard let request = try? JSONParser.parse(requestLine) else { return }
        let pairs: [(JSON, JSON)]
        switch (request, answer) {
        case (.array(let requests), .array(let answers)):
            pairs = answers.compactMap { answer in
                requests.first { $0[RPCEnvelope.id] != nil && $0[RPCEnvelope.id] == answer[RPCEnvelope.id] }.map { ($0, answer) }
            }
        default:
            pairs = [(request, answer)]
        }
        for (request, answer) in pairs {
            guard let method = request[RPCEnvelope.method]?.stringValue, let result = answer[RPCEnvelope.result] else { continue }
            self.result(result, of: method)
        }
    }

    /// A line read off a connection, when it is a notification.
    static func line(_ line: String) {
        guard line.contains("\"\(RPCEnvelope.method)\""), let message = try? JSONParser.parse(line),
              message[RPCEnvelope.id] == nil, let method = message[RPCEnvelope.method]?.stringValue else { return }
        write(["notification": .string(method), "params": message[RPCEnvelope.params] ?? .null])
    }

    private static func write(_ record: JSON) {
        let line = record.encodedString
        lock.withLock {
            kept.append(line)
            guard let directory else { return }
            let path = directory + "/\(getpid()).jsonl"
            if let file = FileHandle(forWritingAtPath: path) ?? {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
                return FileHandle(forWritingAtPath: path)
            }() {
                file.seekToEndOfFile()
                file.write(Data((line + "\n").utf8))
                try? file.close()
            }
        }
    }
}
