#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tests find their files: `Tests/Fixtures` (real CTA data, upstream answers) and the
/// rest of the package (the local upstream's script, a fallback build folder), found from this
/// source file's path so tests run from any working directory. The one locator of every test
/// target; nothing else in the tests works out a path to the repository.
public enum Fixtures {
    /// The package's root directory.
    public static let packageRoot: String = {
        var path = #filePath
        // …/Tests/StopSheetTestSupport/Fixtures.swift → …
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// `Tests/Fixtures`.
    public static let directory = packageRoot + "/Tests/Fixtures"

    /// `Tests/Fixtures/<name>`; `name` may have folders (`upstream/alerts.json`).
    public static func path(_ name: String) -> String { directory + "/" + name }

    /// A fixture's bytes; a missing fixture stops the run (the checkout is broken, not the code).
    public static func bytes(_ name: String) -> [UInt8] { bytes(atPath: path(name)) }

    /// A file's bytes, wherever it is; a missing file stops the run.
    public static func bytes(atPath path: String) -> [UInt8] {
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

    public static func text(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }
}
