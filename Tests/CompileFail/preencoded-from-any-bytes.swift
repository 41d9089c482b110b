// expect: extraneous argument label 'bytes:'
// An answer made of bytes that were not encoded from its type: no initializer of PreEncoded takes
// bytes outside PreEncoded.swift.
import StopSheetProtocol
@testable import StopSheetDaemon

let sheet = PreEncoded<Answer.Sheet>(bytes: Array("{}".utf8))
