import StopSheetCore

/// The failure a decoding call throws, or nil when it succeeds, so a test can compare it whole.
func failure<T>(_ body: () throws(DecodingFailure) -> T) -> DecodingFailure? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
