#if canImport(Glibc)
import Glibc
#endif

/// One line on stderr in a single write(2), so lines from different threads never interleave.
public func printError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
}
