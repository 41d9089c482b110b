import StopSheetCore
import Testing

/// The failure a decoding call throws, or nil when it succeeds, so a test can compare it whole.
/// (Untyped `throws`: closures in `#expect` are not inferred as `throws(DecodingFailure)`.)
func failure<T>(_ body: () throws -> T) -> DecodingFailure? {
    do {
        _ = try body()
        return nil
    } catch let error as DecodingFailure {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
