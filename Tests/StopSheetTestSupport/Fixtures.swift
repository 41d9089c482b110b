import StopSheetCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads files from `Tests/Fixtures`, found from this source file's path so tests run from any
/// working directory.
enum Fixtures {
    static let directory: String = {
        var path = #filePath
        // …/Tests/StopSheetCoreTests/Support/Fixtures.swift → …/Tests
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Fixtures/"
    }()

    static func bytes(_ name: String) -> [UInt8] {
        let path = directory + name
        guard let file = fopen(path, "rb") else { fatalError("missing fixture \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    static func text(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }
}

extension Instant {
    /// Shorthand for expectations: `Instant(1402304400)`.
    init(_ seconds: Int64) { self.init(secondsSince1970: seconds) }
}
