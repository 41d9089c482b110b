import StopSheetCore

/// The last `data` member encoded, kept for the answers that follow in the same second with the
/// same caches' state: most answers then splice bytes instead of encoding. Shared by the loop's
/// handlers (and any other caller) under its lock.
final class EncodedSheetData: Sendable {
    private let last = Locked<(data: SheetData, bytes: [UInt8])?>(nil)

    func bytes(_ data: SheetData) -> [UInt8] {
        if let hit = last.withLock({ $0?.data == data ? $0?.bytes : nil }) { return hit }
        let bytes = data.json.encoded
        last.withLock { $0 = (data, bytes) }
        return bytes
    }
}
