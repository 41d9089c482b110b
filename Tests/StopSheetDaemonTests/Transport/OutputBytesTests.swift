import Testing
@testable import StopSheetDaemon

/// `OutputBytes` grows to hold whatever is appended, by doubling at least (4 KiB the first time),
/// so a long answer costs a few reallocations, not one per append; the bytes read back are the
/// bytes appended.
@Suite struct OutputBytesTests {
    @Test func everyAppendFitsAndTheAllocationAtLeastDoubles() {
        let bytes = OutputBytes()
        var written: [UInt8] = []
        var capacities: [Int] = []
        for index in 0..<20_000 {
            let byte = UInt8(truncatingIfNeeded: index)
            if index % 3 == 0 {
                bytes.append(byte)
                written.append(byte)
            } else {
                let chunk = [UInt8](repeating: byte, count: index % 7)
                chunk.withUnsafeBytes { bytes.append($0) }
                written += chunk
            }
            #expect(bytes.capacity >= bytes.count)
            if capacities.last != bytes.capacity { capacities.append(bytes.capacity) }
        }
        #expect(capacities.first == 4096)
        #expect(zip(capacities, capacities.dropFirst()).allSatisfy { $1 >= 2 * $0 }, "\(capacities)")
        #expect(bytes.withUnsafeBytes { Array($0) } == written)
    }
}
